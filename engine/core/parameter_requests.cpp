#include "core/parameter_requests.h"

namespace tunedeck {

namespace {

QJsonObject refusal(const QString& message) {
    return {{QStringLiteral("action"), QStringLiteral("error")},
            {QStringLiteral("message"), message}};
}

}  // namespace

QJsonObject ParameterRequests::answer(Searcher& searcher, Trial& trial, const QJsonValue& name,
                                      const QJsonValue& distribution, bool* added) {
    *added = false;
    if (!name.isString() || name.toString().isEmpty()) {
        return refusal(
            QStringLiteral("a suggest request needs a parameter name (a non-empty "
                           "string)"));
    }
    const QString param = name.toString();
    SuggestedDistribution asked;
    if (Status s = SuggestedDistribution::fromJson(distribution.toObject(), &asked); !s) {
        return refusal(QStringLiteral("parameter '%1': %2").arg(param, s.message()));
    }
    if (auto known = known_.find(param); known != known_.end()) {
        if (Status s = asked.compatibleWith(known->second); !s) {
            return refusal(QStringLiteral("parameter '%1': %2").arg(param, s.message()));
        }
    }
    known_[param] = asked;
    QJsonValue value = trial.config.value(param);
    if (value.isUndefined()) {
        if (Status s = searcher.suggestParameter(trial.index, trial.id, trial.config, param, asked,
                                                 &value);
            !s) {
            return refusal(QStringLiteral("parameter '%1': search algorithm '%2' %3")
                               .arg(param, algorithm_, s.message()));
        }
        trial.config.insert(param, value);
        *added = true;
    }
    return {{QStringLiteral("action"), QStringLiteral("value")}, {QStringLiteral("value"), value}};
}

const SuggestedDistribution* ParameterRequests::known(const QString& name) const {
    const auto found = known_.find(name);
    return found == known_.end() ? nullptr : &found->second;
}

}  // namespace tunedeck
