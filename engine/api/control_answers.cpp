#include "api/control_answers.h"

#include "api/json_fields.h"

namespace tunedeck::api {

namespace {

QString answerTo(const char* op) {
    return QStringLiteral("answer to %1").arg(QLatin1String(op));
}

}  // namespace

Status answerStatus(const QJsonObject& answer) {
    JsonFields f(answer, QStringLiteral("answer"));
    if (f.boolean("ok")) {
        return Status::ok();
    }
    if (!f.status()) {
        return f.status();
    }
    JsonFields error(f.object("error"), QStringLiteral("error answer"));
    const QString message = error.text("message");
    if (!f.status()) {
        return f.status();
    }
    return error.status() ? Status::invalid(message) : error.status();
}

Status decodeHello(const QJsonObject& answer, HelloAnswer* out) {
    if (Status s = answerStatus(answer); !s) {
        return s;
    }
    JsonFields f(answer, answerTo("hello"));
    out->api = int(f.integer("api"));
    out->events = int(f.integer("events"));
    out->engine = f.text("engine", {});
    out->results = f.text("results", {});
    return f.status();
}

Status decodeExperimentList(const QJsonObject& answer, std::vector<ExperimentListEntry>* out) {
    if (Status s = answerStatus(answer); !s) {
        return s;
    }
    JsonFields f(answer, answerTo("list"));
    const QJsonArray list = f.array("experiments");
    out->clear();
    for (qsizetype i = 0; i < list.size() && f.status(); ++i) {
        if (!list.at(i).isObject()) {
            f.fail(QStringLiteral("\"experiments\"[%1] must be an object").arg(i));
            break;
        }
        JsonFields e(list.at(i).toObject(),
                     QStringLiteral("%1, \"experiments\"[%2]").arg(answerTo("list")).arg(i));
        ExperimentListEntry entry;
        entry.experiment = e.text("experiment");
        entry.status = e.text("status", {});
        entry.createdAt = e.optionalNumber("created_at").value_or(0);
        entry.trials = int(e.integer("trials", 0));
        entry.errors = int(e.integer("errors", 0));
        entry.best = e.text("best", {});
        entry.served = e.boolean("served", false);
        if (!e.status()) {
            return e.status();
        }
        out->push_back(entry);
    }
    return f.status();
}

Status decodeStarted(const QJsonObject& answer, StartedAnswer* out) {
    if (Status s = answerStatus(answer); !s) {
        return s;
    }
    JsonFields f(answer, answerTo("start"));
    out->experiment = f.text("experiment");
    out->folder = f.text("folder", {});
    return f.status();
}

Status decodeSubscribed(const QJsonObject& answer, SubscribedAnswer* out) {
    if (Status s = answerStatus(answer); !s) {
        return s;
    }
    JsonFields f(answer, answerTo("subscribe"));
    out->subscription = int(f.integer("subscription"));
    out->name = f.text("name", {});
    out->metric = f.text("metric", {});
    out->minimize = f.text("mode", {}) == QLatin1String("min");
    out->status = f.text("status", {});
    out->spec = f.text("spec", {});
    return f.status();
}

Status decodeText(const QJsonObject& answer, TextAnswer* out) {
    if (Status s = answerStatus(answer); !s) {
        return s;
    }
    JsonFields f(answer, answerTo("best or export"));
    out->text = f.text("text");
    return f.status();
}

Status decodeTrialLog(const QJsonObject& answer, TrialLogAnswer* out) {
    if (Status s = answerStatus(answer); !s) {
        return s;
    }
    JsonFields f(answer, answerTo("trial_log"));
    out->text = f.text("text");
    out->offset = f.integer("offset");
    out->size = f.integer("size");
    return f.status();
}

Status decodeQueue(const QJsonObject& answer, QueueAnswer* out) {
    if (Status s = answerStatus(answer); !s) {
        return s;
    }
    JsonFields f(answer, answerTo("queue"));
    JsonFields capacity(f.object("capacity"), answerTo("queue") + QStringLiteral(", capacity"));
    JsonFields inUse(f.object("in_use"), answerTo("queue") + QStringLiteral(", in_use"));
    out->cpu = capacity.number("cpu");
    out->gpu = capacity.number("gpu");
    out->cpuInUse = inUse.number("cpu");
    out->gpuInUse = inUse.number("gpu");
    const QJsonArray list = f.array("experiments");
    out->experiments.clear();
    for (qsizetype i = 0; i < list.size() && f.status() && capacity.status() && inUse.status();
         ++i) {
        JsonFields e(list.at(i).toObject(),
                     QStringLiteral("%1, \"experiments\"[%2]").arg(answerTo("queue")).arg(i));
        QueueEntry entry;
        entry.experiment = e.text("experiment");
        entry.user = e.text("user");
        entry.priority = int(e.integer("priority"));
        entry.running = int(e.integer("running"));
        entry.allowed = int(e.integer("slots"));
        entry.wanted = int(e.integer("wanted"));
        entry.cpu = e.number("cpu");
        entry.gpu = e.number("gpu");
        entry.why = e.text("why", {});
        if (!e.status()) {
            return e.status();
        }
        out->experiments.push_back(entry);
    }
    if (!capacity.status()) {
        return capacity.status();
    }
    if (!inUse.status()) {
        return inUse.status();
    }
    return f.status();
}

}  // namespace tunedeck::api
