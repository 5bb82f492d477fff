#include "api/event_decoders.h"

#include "core/events.h"
#include "api/json_fields.h"

namespace tunedeck::events {

using api::JsonFields;

namespace {

QString described(const QString& type) {
    return type + QStringLiteral(" event");
}

}  // namespace

Status decodeExperimentStarted(const QJsonObject& payload, ExperimentStartedEvent* out) {
    JsonFields f(payload, described(type::kExperimentStarted));
    out->name = f.text("name");
    out->folder = f.text("folder", {});
    out->resumed = f.boolean("resumed", false);
    return f.status();
}

Status decodeExperimentFinished(const QJsonObject& payload, ExperimentFinishedEvent* out) {
    JsonFields f(payload, described(type::kExperimentFinished));
    out->status = f.text("status");
    out->terminated = int(f.integer("terminated", 0));
    out->errored = int(f.integer("errored", 0));
    return f.status();
}

Status decodeTrialAdded(const QJsonObject& payload, TrialAddedEvent* out) {
    JsonFields f(payload, described(type::kTrialAdded));
    out->trial = f.text("trial");
    out->index = f.integer("index", 0);
    out->config = f.object("config");
    out->configFloats = f.floatPaths("config_floats");
    return f.status();
}

Status decodeTrialStatus(const QJsonObject& payload, TrialStatusEvent* out) {
    JsonFields f(payload, described(type::kTrialStatus));
    out->trial = f.text("trial");
    out->status = f.text("status");
    out->reason = f.text("reason", {});
    out->node = f.optionalText("node");
    out->iteration = f.integer("iteration", 0);
    out->failures = int(f.integer("failures", 0));
    out->gpus.clear();
    const QJsonArray gpus = f.array("gpus", {});
    for (qsizetype i = 0; i < gpus.size() && f.status(); ++i) {
        if (!gpus.at(i).isDouble() || gpus.at(i).toInt(-1) < 0) {
            f.fail(QStringLiteral("\"gpus\"[%1] must be a card index").arg(i));
            break;
        }
        out->gpus.push_back(gpus.at(i).toInt());
    }
    out->ranks.clear();
    const QJsonArray ranks = f.array("ranks", {});
    for (qsizetype i = 0; i < ranks.size() && f.status(); ++i) {
        if (!ranks.at(i).isObject()) {
            f.fail(QStringLiteral("\"ranks\"[%1] must be an object").arg(i));
            break;
        }
        JsonFields r(ranks.at(i).toObject(),
                     QStringLiteral("%1 \"ranks\"[%2]").arg(described(type::kTrialStatus)).arg(i));
        RankPlacement rank;
        rank.rank = int(r.integer("rank", i));
        rank.node = r.text("node");
        rank.nodeRank = int(r.integer("node_rank", 0));
        rank.localRank = int(r.integer("local_rank", 0));
        const QJsonArray cards = r.array("gpus", {});
        for (const QJsonValue& card : cards) {
            if (!card.isDouble() || card.toInt(-1) < 0) {
                r.fail(QStringLiteral("\"gpus\" must hold card indexes"));
                break;
            }
            rank.gpus.push_back(card.toInt());
        }
        if (!r.status()) {
            return r.status();
        }
        out->ranks.push_back(std::move(rank));
    }
    return f.status();
}

Status decodeResult(const QJsonObject& payload, ResultEvent* out) {
    JsonFields f(payload, described(type::kResult));
    out->trial = f.text("trial");
    out->result = f.object("result");
    return f.status();
}

Status decodeCheckpoint(const QJsonObject& payload, CheckpointEvent* out) {
    JsonFields f(payload, described(type::kCheckpoint));
    out->trial = f.text("trial");
    out->iteration = f.integer("iteration");
    out->path = f.text("path");
    return f.status();
}

Status decodeExploit(const QJsonObject& payload, ExploitEvent* out) {
    JsonFields f(payload, described(type::kExploit));
    out->trial = f.text("trial");
    out->source = f.text("source");
    out->iteration = f.integer("iteration");
    out->sourceIteration = f.integer("source_iteration");
    out->oldConfig = f.object("old_config");
    out->newConfig = f.object("new_config");
    out->oldConfigFloats = f.floatPaths("old_config_floats");
    out->newConfigFloats = f.floatPaths("new_config_floats");
    out->reason = f.text("reason", {});
    return f.status();
}

Status decodeNode(const QJsonObject& payload, NodeEvent* out) {
    JsonFields f(payload, described(type::kNode));
    out->node = f.text("node");
    out->state = f.text("state");
    out->details = f.object("details", {});
    return f.status();
}

Status decodeNodeUsage(const QJsonObject& payload, NodeUsageEvent* out) {
    JsonFields f(payload, described(type::kNodeUsage));
    out->node = f.text("node");
    out->cpuPercent = f.optionalNumber("cpu_percent");
    out->memoryUsedMb = f.integer("memory_used_mb", 0);
    out->memoryTotalMb = f.integer("memory_total_mb", 0);
    out->gpus.clear();
    const QJsonArray gpus = f.array("gpus", {});
    for (qsizetype i = 0; i < gpus.size() && f.status(); ++i) {
        if (!gpus.at(i).isObject()) {
            f.fail(QStringLiteral("\"gpus\"[%1] must be an object").arg(i));
            break;
        }
        JsonFields g(gpus.at(i).toObject(),
                     QStringLiteral("%1 \"gpus\"[%2]").arg(described(type::kNodeUsage)).arg(i));
        GpuUsage gpu;
        gpu.index = int(g.integer("index"));
        gpu.uuid = g.text("uuid", {});
        gpu.name = g.text("name", {});
        gpu.utilizationPercent = g.optionalNumber("utilization_percent");
        gpu.memoryUsedMb = g.integer("memory_used_mb", 0);
        gpu.memoryTotalMb = g.integer("memory_total_mb", 0);
        gpu.temperatureC = g.optionalNumber("temperature_c");
        gpu.powerW = g.optionalNumber("power_w");
        gpu.trials = g.texts("trials");
        gpu.lost = g.boolean("lost", false);
        if (!g.status()) {
            return g.status();
        }
        out->gpus.push_back(std::move(gpu));
    }
    out->trials.clear();
    const QJsonArray trials = f.array("trials", {});
    for (qsizetype i = 0; i < trials.size() && f.status(); ++i) {
        if (!trials.at(i).isObject()) {
            f.fail(QStringLiteral("\"trials\"[%1] must be an object").arg(i));
            break;
        }
        JsonFields t(trials.at(i).toObject(),
                     QStringLiteral("%1 \"trials\"[%2]").arg(described(type::kNodeUsage)).arg(i));
        TrialUsage usage;
        usage.trial = t.text("trial");
        usage.cpuPercent = t.optionalNumber("cpu_percent");
        usage.rssMb = t.optionalNumber("rss_mb").value_or(0);
        usage.processes = int(t.integer("processes", 0));
        usage.gpuMemoryMb = t.optionalNumber("gpu_memory_mb");
        if (t.has("rank")) {
            usage.rank = int(t.integer("rank"));
        }
        if (!t.status()) {
            return t.status();
        }
        out->trials.push_back(std::move(usage));
    }
    return f.status();
}

Status decodeLog(const QJsonObject& payload, LogEvent* out) {
    JsonFields f(payload, described(type::kLog));
    out->trial = f.text("trial");
    out->message = f.text("message");
    return f.status();
}

Status decodeWarning(const QJsonObject& payload, WarningEvent* out) {
    JsonFields f(payload, described(type::kWarning));
    out->message = f.text("message");
    out->trial = f.text("trial", {});
    return f.status();
}

Status decodeLimits(const QJsonObject& payload, LimitsEvent* out) {
    JsonFields f(payload, described(type::kLimits));
    const auto whole = [&f](const char* key) -> std::optional<qint64> {
        return f.has(key) ? std::optional(f.integer(key)) : std::nullopt;
    };
    out->numSamples = whole("num_samples");
    out->maxConcurrentTrials = whole("max_concurrent_trials");
    out->trials = whole("trials");
    return f.status();
}

Status decodeTrialNote(const QJsonObject& payload, TrialNoteEvent* out) {
    JsonFields f(payload, described(type::kTrialNote));
    out->trial = f.text("trial");
    out->note = f.text("note", {});
    return f.status();
}

namespace {

template <typename T>
Status decodeInto(Status (*decode)(const QJsonObject&, T*), const QJsonObject& payload,
                  EventPayload* out) {
    T event;
    Status status = decode(payload, &event);
    if (status) {
        *out = std::move(event);
    }
    return status;
}

}  // namespace

Status decodeEvent(const QJsonObject& envelope, Event* out) {
    JsonFields f(envelope, QStringLiteral("event"));
    const QString type = f.text("type");
    const qint64 version = f.integer("v", kEventSchemaVersion);
    const qint64 seq = f.integer("seq", 0);
    const double time = f.optionalNumber("time").value_or(0);
    if (!f.status()) {
        return f.status();
    }
    if (version > kEventSchemaVersion) {
        return Status::invalid(QStringLiteral("%1 event of schema v%2: this reader knows v%3")
                                   .arg(type)
                                   .arg(version)
                                   .arg(kEventSchemaVersion));
    }
    out->seq = seq;
    out->time = time;
    EventPayload& p = out->payload;
    if (type == type::kResult) {
        return decodeInto(decodeResult, envelope, &p);
    }
    if (type == type::kTrialStatus) {
        return decodeInto(decodeTrialStatus, envelope, &p);
    }
    if (type == type::kTrialAdded) {
        return decodeInto(decodeTrialAdded, envelope, &p);
    }
    if (type == type::kNodeUsage) {
        return decodeInto(decodeNodeUsage, envelope, &p);
    }
    if (type == type::kCheckpoint) {
        return decodeInto(decodeCheckpoint, envelope, &p);
    }
    if (type == type::kExploit) {
        return decodeInto(decodeExploit, envelope, &p);
    }
    if (type == type::kNode) {
        return decodeInto(decodeNode, envelope, &p);
    }
    if (type == type::kLog) {
        return decodeInto(decodeLog, envelope, &p);
    }
    if (type == type::kWarning) {
        return decodeInto(decodeWarning, envelope, &p);
    }
    if (type == type::kLimits) {
        return decodeInto(decodeLimits, envelope, &p);
    }
    if (type == type::kTrialNote) {
        return decodeInto(decodeTrialNote, envelope, &p);
    }
    if (type == type::kExperimentStarted) {
        return decodeInto(decodeExperimentStarted, envelope, &p);
    }
    if (type == type::kExperimentFinished) {
        return decodeInto(decodeExperimentFinished, envelope, &p);
    }
    p = UnknownEvent{type};
    return Status::ok();
}

}  // namespace tunedeck::events
