#include "cli/control_requests.h"

#include <QRegularExpression>
#include <QStringList>
#include <cmath>

#include "config/experiment_loader.h"
#include "core/best_trial.h"

namespace tunedeck::cli {

LoadResult<ExperimentSpec> loadRequestedExperiment(const api::Request& request,
                                                   const QString& resultsRoot) {
    if (request.arguments.contains("path")) {
        return loadExperimentFile(request.text("path"));
    }
    if (!request.arguments.value("yaml").isString()) {
        LoadResult<ExperimentSpec> refused;
        refused.problems.push_back(
            {{}, QString(), QStringLiteral("give the experiment as \"path\" or as \"yaml\"")});
        return refused;
    }
    QString fileName = request.text("file_name");
    if (fileName.isEmpty()) {
        fileName = resultsRoot + QStringLiteral("/experiment.yaml");
    }
    return loadExperimentText(request.text("yaml"), fileName);
}

bool isWholeNumberArgument(const QJsonValue& value) {
    constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
    const double number = value.toDouble(-1);
    return value.isDouble() && number >= 0 && number <= kLargestExactInteger &&
           std::floor(number) == number;
}

std::optional<std::int64_t> sinceArgument(const api::Request& request, QString* error) {
    const QJsonValue since = request.arguments.value("since");
    if (!since.isUndefined() && !isWholeNumberArgument(since)) {
        *error =
            QStringLiteral("\"since\" must be a sequence number (a whole number from 0 to 2^53)");
        return std::nullopt;
    }
    return std::int64_t(since.toDouble());
}

std::optional<QueuePlace> queuePlaceArgument(const api::Request& request, const QString& peer,
                                             QString* error) {
    constexpr double kMostPriority = 1000;
    static const QRegularExpression userName(QStringLiteral("^[A-Za-z0-9._@-]{1,64}$"));
    QueuePlace place;
    const QJsonValue priority = request.arguments.value("priority");
    if (!priority.isUndefined()) {
        const double p = priority.toDouble(kMostPriority + 1);
        if (!priority.isDouble() || std::floor(p) != p || std::abs(p) > kMostPriority) {
            *error = QStringLiteral("\"priority\" must be a whole number from -1000 to 1000");
            return std::nullopt;
        }
        place.priority = int(p);
    }
    const QJsonValue user = request.arguments.value("user");
    if (!user.isUndefined() && !userName.match(user.toString()).hasMatch()) {
        *error = QStringLiteral("\"user\" must be 1 to 64 letters, digits, '.', '_', '@' or '-'");
        return std::nullopt;
    }
    place.user = user.isUndefined() ? peer : user.toString();
    return place;
}

std::optional<TrialLogRequest> trialLogArgument(const api::Request& request, QString* error) {
    static const QRegularExpression trialId(QStringLiteral("^t[0-9]+$"));
    const QString trial = request.text("trial");
    const QJsonValue from = request.arguments.value("offset");
    if (!trialId.match(trial).hasMatch() || (!from.isUndefined() && !isWholeNumberArgument(from))) {
        *error = QStringLiteral(
            "trial_log takes \"trial\" (an id like t00003) and an \"offset\" (a whole number "
            "from 0 to 2^53)");
        return std::nullopt;
    }
    return TrialLogRequest{trial, qint64(from.toDouble())};
}

std::optional<QString> reportFormatArgument(const api::Request& request, QString* error) {
    const bool best = request.op == api::op::kBest;
    const QString format = request.text("format").isEmpty()
                               ? (best ? QStringLiteral("yaml") : QStringLiteral("csv"))
                               : request.text("format");
    const QStringList formats =
        best ? QStringList{"yaml", "json", "flags"} : QStringList{"csv", "json"};
    if (!formats.contains(format)) {
        *error = QStringLiteral("%1: \"format\" is one of %2").arg(request.op, formats.join(", "));
        return std::nullopt;
    }
    return format;
}

std::optional<QString> bestScopeArgument(const api::Request& request, QString* error) {
    const QString scope = request.text("scope").isEmpty() ? scoreScopeName(kDefaultScoreScope)
                                                          : request.text("scope");
    if (!scoreScopeFromName(scope)) {
        *error = QStringLiteral("best: \"scope\" is one of %1")
                     .arg(scoreScopeNames().join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return scope;
}

}  // namespace tunedeck::cli
