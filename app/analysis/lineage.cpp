#include "analysis/lineage.h"

#include <algorithm>
#include <set>

#include "api/events.h"
#include "models/config_text.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

Lineage::Lineage(const std::vector<QJsonObject>& exploits) : exploits_(&exploits) {
    for (int i = 0; i < int(exploits.size()); ++i) {
        const QString trial = exploits[std::size_t(i)].value("trial").toString();
        std::vector<int>& indices = byTrial_[trial];
        if (indices.empty()) {
            exploited_.append(trial);
        }
        indices.push_back(i);
    }
}

int Lineage::lastBefore(const QString& trialId, int limit) const {
    auto it = byTrial_.find(trialId);
    if (it == byTrial_.end()) {
        return -1;
    }
    const std::vector<int>& indices = it->second;
    auto after = std::lower_bound(indices.begin(), indices.end(), limit);
    return after == indices.begin() ? -1 : *(after - 1);
}

std::vector<LineageStep> Lineage::stepsOf(const QString& trialId) const {
    std::vector<LineageStep> steps;
    QString current = trialId;
    int limit = int(exploits_->size());
    // Each step goes to an earlier event, so the walk ends after at most one step per event.
    for (int at = lastBefore(current, limit); at >= 0; at = lastBefore(current, limit)) {
        const QJsonObject& e = (*exploits_)[std::size_t(at)];
        LineageStep step;
        step.trial = current;
        step.source = e.value("source").toString();
        step.iteration = qint64(e.value("iteration").toDouble());
        step.sourceIteration = qint64(e.value("source_iteration").toDouble());
        step.changes =
            configChanges(e.value("old_config").toObject(), e.value("new_config").toObject(),
                          events::configFloatsOf(e, QStringLiteral("old_config_floats")),
                          events::configFloatsOf(e, QStringLiteral("new_config_floats")));
        step.reason = e.value("reason").toString();
        steps.push_back(step);
        current = step.source;
        limit = at;
    }
    return steps;
}

QStringList Lineage::chainOf(const QString& trialId) const {
    QStringList chain{trialId};
    for (const LineageStep& step : stepsOf(trialId)) {
        chain.append(step.source);
    }
    return chain;
}

QJsonObject Lineage::configBeforeFirstExploit(const QString& trialId) const {
    auto it = byTrial_.find(trialId);
    if (it == byTrial_.end()) {
        return {};
    }
    return (*exploits_)[std::size_t(it->second.front())].value("old_config").toObject();
}

FloatPaths Lineage::configFloatsBeforeFirstExploit(const QString& trialId) const {
    auto it = byTrial_.find(trialId);
    if (it == byTrial_.end()) {
        return {};
    }
    return events::configFloatsOf((*exploits_)[std::size_t(it->second.front())],
                                  QStringLiteral("old_config_floats"));
}

QStringList Lineage::configChanges(const QJsonObject& before, const QJsonObject& after,
                                   const FloatPaths& beforeFloats, const FloatPaths& afterFloats) {
    const QJsonObject old = ExperimentData::flatten(before);
    const QJsonObject now = ExperimentData::flatten(after);
    std::set<QString> keys;
    for (const QString& key : old.keys()) {
        keys.insert(key);
    }
    for (const QString& key : now.keys()) {
        keys.insert(key);
    }
    QStringList changes;
    for (const QString& key : keys) {
        const QJsonValue a = old.value(key);
        const QJsonValue b = now.value(key);
        if (a != b) {
            changes.append(
                QStringLiteral("%1: %2 → %3")
                    .arg(key,
                         a.isUndefined() ? QStringLiteral("–")
                                         : configValueText(a, floatPathsBelow(beforeFloats, key)),
                         b.isUndefined() ? QStringLiteral("–")
                                         : configValueText(b, floatPathsBelow(afterFloats, key))));
        }
    }
    return changes;
}

}  // namespace tunedeck::app
