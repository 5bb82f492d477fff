#include "analysis/lineage.h"

#include <algorithm>
#include <set>

#include "models/config_text.h"

namespace tunedeck::app {

Lineage::Lineage(const std::vector<Exploit>& exploits) : exploits_(&exploits) {
    for (int i = 0; i < int(exploits.size()); ++i) {
        const QString& trial = exploits[std::size_t(i)].event.trial;
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
        const events::ExploitEvent& e = (*exploits_)[std::size_t(at)].event;
        LineageStep step;
        step.trial = current;
        step.source = e.source;
        step.iteration = e.iteration;
        step.sourceIteration = e.sourceIteration;
        step.changes =
            configChanges(e.oldConfig, e.newConfig, e.oldConfigFloats, e.newConfigFloats);
        step.reason = e.reason;
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
    return (*exploits_)[std::size_t(it->second.front())].event.oldConfig;
}

FloatPaths Lineage::configFloatsBeforeFirstExploit(const QString& trialId) const {
    auto it = byTrial_.find(trialId);
    if (it == byTrial_.end()) {
        return {};
    }
    return (*exploits_)[std::size_t(it->second.front())].event.oldConfigFloats;
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
