#include "core/experiment_limits.h"

#include <QJsonValue>
#include <memory>

#include "core/searcher.h"

namespace tunedeck {

namespace {

// Larger than any experiment runs, small enough for an int.
constexpr double kLargestLimit = 1e9;

Status readLimit(const QJsonObject& fields, const QString& key, std::optional<int>* out) {
    if (!fields.contains(key)) {
        return Status::ok();
    }
    const QJsonValue value = fields.value(key);
    const double number = value.toDouble(0);
    if (!value.isDouble() || number < 1 || number > kLargestLimit ||
        number != double(qint64(number))) {
        return Status::invalid(
            QStringLiteral("%1 must be a whole number >= 1, not %2")
                .arg(key, value.isString()
                              ? QLatin1Char('\'') + value.toString().left(40) + QLatin1Char('\'')
                          : value.isDouble() ? QString::number(number)
                                             : QStringLiteral("that")));
    }
    *out = int(number);
    return Status::ok();
}

}  // namespace

Status parseLimitsChange(const QJsonObject& fields, LimitsChange* out) {
    LimitsChange change;
    if (Status s = readLimit(fields, QStringLiteral("num_samples"), &change.numSamples); !s) {
        return s;
    }
    if (Status s =
            readLimit(fields, QStringLiteral("max_concurrent_trials"), &change.maxConcurrentTrials);
        !s) {
        return s;
    }
    if (!change.numSamples && !change.maxConcurrentTrials) {
        return Status::invalid(
            QStringLiteral("give num_samples, max_concurrent_trials or both (whole numbers >= 1)"));
    }
    *out = change;
    return Status::ok();
}

Status applyLimitsChange(const LimitsChange& change, std::int64_t created, ExperimentSpec* spec) {
    ExperimentSpec changed = *spec;
    if (change.numSamples && *change.numSamples != spec->numSamples) {
        if (spec->samplesUntilBudget()) {
            return Status::invalid(
                QStringLiteral("num_samples: this experiment samples until time_budget_s is spent "
                               "(num_samples: -1); it has no count to change"));
        }
        changed.numSamples = *change.numSamples;
        QString badKey;
        if (Status s = validateSearcher(changed, &badKey); !s) {
            return Status::invalid(QStringLiteral("num_samples %1: %2: %3")
                                       .arg(*change.numSamples)
                                       .arg(badKey, s.message()));
        }
        const std::unique_ptr<Searcher> searcher = makeSearcher(changed);
        const std::optional<std::int64_t> total = searcher ? searcher->totalTrials() : std::nullopt;
        if (total && *total < created) {
            const QString makes = *total == *change.numSamples
                                      ? QStringLiteral("is")
                                      : QStringLiteral("makes %1 trials in all,").arg(*total);
            return Status::invalid(QStringLiteral("num_samples %1 %2 fewer than the %3 trials "
                                                  "already created (a created trial is not "
                                                  "taken back)")
                                       .arg(*change.numSamples)
                                       .arg(makes)
                                       .arg(created));
        }
    }
    if (change.maxConcurrentTrials) {
        changed.maxConcurrentTrials = *change.maxConcurrentTrials;
    }
    *spec = std::move(changed);
    return Status::ok();
}

std::unique_ptr<Searcher> searcherForLimits(const Searcher& current, const ExperimentSpec& changed,
                                            Status* why) {
    std::unique_ptr<Searcher> searcher = makeSearcher(changed);
    if (!searcher) {
        *why = Status::invalid(
            QStringLiteral("num_samples: no searcher '%1'").arg(changed.search.name));
        return nullptr;
    }
    if (Status s = searcher->restoreState(current.saveState()); !s) {
        *why = Status::invalid(
            QStringLiteral("num_samples: the %1 searcher cannot take a new count: %2")
                .arg(changed.search.name, s.message()));
        return nullptr;
    }
    *why = Status::ok();
    return searcher;
}

}  // namespace tunedeck
