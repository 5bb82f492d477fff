#include "core/events.h"

#include <QJsonArray>

namespace tunedeck::events {

QJsonArray gangRanks(const GangPlacement& gang) {
    QJsonArray ranks;
    for (const GangRank& rank : gang.ranks) {
        QJsonArray gpus;
        for (int slot : rank.placement.gpuSlots) {
            gpus.append(slot);
        }
        ranks.append(QJsonObject{{"rank", rank.rank},
                                 {"node", rank.placement.nodeId},
                                 {"node_rank", rank.nodeRank},
                                 {"local_rank", rank.localRank},
                                 {"gpus", gpus}});
    }
    return ranks;
}

QJsonObject experimentStarted(const QString& name, const QString& folder, bool resumed) {
    return {{"name", name}, {"folder", folder}, {"resumed", resumed}};
}

QJsonObject experimentFinished(const QString& status, int terminated, int errored) {
    return {{"status", status}, {"terminated", terminated}, {"errored", errored}};
}

namespace {

QJsonArray pathList(const FloatPaths& paths) {
    QStringList sorted(paths.begin(), paths.end());
    sorted.sort();
    return QJsonArray::fromStringList(sorted);
}

}  // namespace

QJsonObject trialAdded(const Trial& trial, const FloatPaths& configFloats) {
    return {{"trial", trial.id},
            {"index", qint64(trial.index)},
            {"config", trial.config},
            {"config_floats", pathList(configFloats)}};
}

QJsonObject trialStatus(const Trial& trial, const QString& reason, const std::vector<int>& gpus) {
    QJsonObject o{{"trial", trial.id},
                  {"status", trialStatusName(trial.status)},
                  {"iteration", qint64(trial.iteration)},
                  {"failures", trial.failures}};
    if (!reason.isEmpty()) {
        o.insert("reason", reason);
    }
    if (!trial.nodeId.isEmpty()) {
        o.insert("node", trial.nodeId);
    }
    if (!gpus.empty()) {
        QJsonArray cards;
        for (int index : gpus) {
            cards.append(index);
        }
        o.insert("gpus", cards);
    }
    return o;
}

QJsonObject result(const QString& trialId, const QJsonObject& result) {
    return {{"trial", trialId}, {"result", result}};
}

QJsonObject checkpoint(const QString& trialId, std::int64_t iteration, const QString& path) {
    return {{"trial", trialId}, {"iteration", qint64(iteration)}, {"path", path}};
}

QJsonObject trialResources(const QString& trialId, std::int64_t iteration, int fromWorkers,
                           int toWorkers, const QString& reason) {
    return {{"trial", trialId},
            {"iteration", qint64(iteration)},
            {"from_workers", fromWorkers},
            {"to_workers", toWorkers},
            {"reason", reason}};
}

QJsonObject exploit(const QString& trialId, const QString& sourceTrialId, std::int64_t iteration,
                    std::int64_t sourceIteration, const QJsonObject& oldConfig,
                    const QJsonObject& newConfig, const QString& reason,
                    const FloatPaths& oldFloats, const FloatPaths& newFloats) {
    return {{"trial", trialId},
            {"source", sourceTrialId},
            {"iteration", qint64(iteration)},
            {"source_iteration", qint64(sourceIteration)},
            {"old_config", oldConfig},
            {"old_config_floats", pathList(oldFloats)},
            {"new_config", newConfig},
            {"new_config_floats", pathList(newFloats)},
            {"reason", reason}};
}

FloatPaths configFloatsOf(const QJsonObject& event, const QString& field) {
    FloatPaths paths;
    for (const QJsonValue& path : event.value(field).toArray()) {
        if (path.isString()) {
            paths.insert(path.toString());
        }
    }
    return paths;
}

QJsonObject limits(std::optional<int> numSamples, std::optional<int> maxConcurrentTrials,
                   std::optional<std::int64_t> trials) {
    QJsonObject payload{{"trials", trials ? QJsonValue(qint64(*trials)) : QJsonValue()}};
    if (numSamples) {
        payload.insert("num_samples", *numSamples);
    }
    if (maxConcurrentTrials) {
        payload.insert("max_concurrent_trials", *maxConcurrentTrials);
    }
    return payload;
}

QJsonObject trialNote(const QString& trialId, const QString& note) {
    return {{"trial", trialId}, {"note", note}};
}

QJsonObject node(const QString& nodeId, const QString& state, const QJsonObject& details) {
    return {{"node", nodeId}, {"state", state}, {"details", details}};
}

namespace {

// A number, or null when the agent had none (a JSON null stays null, anything else is dropped).
QJsonValue reading(const QJsonValue& value) {
    return value.isDouble() ? value : QJsonValue(QJsonValue::Null);
}

}  // namespace

QJsonObject nodeUsage(const QString& nodeId, const QJsonObject& sample) {
    QJsonArray gpus;
    for (const QJsonValue& entry : sample.value("gpus").toArray()) {
        const QJsonObject gpu = entry.toObject();
        QJsonArray trials;
        for (const QJsonValue& trial : gpu.value("trials").toArray()) {
            trials.append(trial.isString() ? trial
                                           : QJsonValue(QString::number(trial.toInteger())));
        }
        gpus.append(QJsonObject{{"index", gpu.value("index").toInt()},
                                {"uuid", gpu.value("uuid").toString()},
                                {"name", gpu.value("name").toString()},
                                {"utilization_percent", reading(gpu.value("utilization_percent"))},
                                {"memory_used_mb", gpu.value("memory_used_mb").toInteger()},
                                {"memory_total_mb", gpu.value("memory_total_mb").toInteger()},
                                {"temperature_c", reading(gpu.value("temperature_c"))},
                                {"power_w", reading(gpu.value("power_w"))},
                                {"trials", trials},
                                {"lost", gpu.value("lost").toBool()}});
    }
    QJsonArray trials;
    for (const QJsonValue& entry : sample.value("trials").toArray()) {
        const QJsonObject trial = entry.toObject();
        const QJsonValue id = trial.value("trial");
        QJsonObject usage{
            {"trial", id.isString() ? id : QJsonValue(QString::number(id.toInteger()))},
            {"cpu_percent", reading(trial.value("cpu_percent"))},
            {"rss_mb", trial.value("rss_mb").toDouble()},
            {"processes", trial.value("processes").toInt()}};
        if (trial.contains("gpu_memory_mb")) {
            usage.insert("gpu_memory_mb", trial.value("gpu_memory_mb").toDouble());
        }
        if (trial.contains("rank")) {
            usage.insert("rank", trial.value("rank").toInt());  // one rank of a gang trial
        }
        trials.append(usage);
    }
    return {{"node", nodeId},
            {"cpu_percent", reading(sample.value("cpu_percent"))},
            {"memory_used_mb", sample.value("memory_used_mb").toInteger()},
            {"memory_total_mb", sample.value("memory_total_mb").toInteger()},
            {"gpus", gpus},
            {"trials", trials}};
}

QJsonObject log(const QString& trialId, const QString& message) {
    return {{"trial", trialId}, {"message", message}};
}

QJsonObject warning(const QString& message, const QString& trialId) {
    QJsonObject o{{"message", message}};
    if (!trialId.isEmpty()) {
        o.insert("trial", trialId);
    }
    return o;
}

QJsonObject envelope(const QString& type, std::int64_t seq, double time, QJsonObject payload) {
    payload.insert("v", kEventSchemaVersion);
    payload.insert("seq", qint64(seq));
    payload.insert("time", time);
    payload.insert("type", type);
    return payload;
}

}  // namespace tunedeck::events
