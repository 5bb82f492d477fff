#include "api/run_order.h"

#include <QJsonDocument>
#include <array>
#include <cmath>
#include <utility>

#include "api/control_protocol.h"

namespace tunedeck::api {

namespace {

constexpr double kLargestCount = 1e6;  // max_workers, slots

const QString kShare = QStringLiteral("share");

const std::array<std::pair<const QString*, RunOrder::Op>, 9>& opNames() {
    static const std::array<std::pair<const QString*, RunOrder::Op>, 9> names{{
        {&op::kStopTrial, RunOrder::Op::StopTrial},
        {&op::kPauseTrial, RunOrder::Op::PauseTrial},
        {&op::kResumeTrial, RunOrder::Op::ResumeTrial},
        {&op::kStop, RunOrder::Op::Stop},
        {&op::kPause, RunOrder::Op::Pause},
        {&op::kSetMaxWorkers, RunOrder::Op::SetMaxWorkers},
        {&op::kSetLimits, RunOrder::Op::SetLimits},
        {&op::kSetTrialNote, RunOrder::Op::SetTrialNote},
        {&kShare, RunOrder::Op::Share},
    }};
    return names;
}

std::optional<RunOrder::Op> opNamed(const QString& name) {
    for (const auto& [text, op] : opNames()) {
        if (*text == name) {
            return op;
        }
    }
    return std::nullopt;
}

const QString& nameOf(RunOrder::Op op) {
    for (const auto& [text, named] : opNames()) {
        if (named == op) {
            return *text;
        }
    }
    return kShare;  // unreachable: every op has a name
}

// Whether `op` is about one trial (its "trial" is required).
bool namesTrial(RunOrder::Op op) {
    return op == RunOrder::Op::StopTrial || op == RunOrder::Op::PauseTrial ||
           op == RunOrder::Op::ResumeTrial || op == RunOrder::Op::SetTrialNote;
}

// A whole number from 0 to kLargestCount in `fields`' `key`.
std::optional<int> count(const QJsonObject& fields, const char* key) {
    const QJsonValue value = fields.value(QLatin1String(key));
    const double n = value.toDouble(-1);
    if (!value.isDouble() || n < 0 || n > kLargestCount || n != std::floor(n)) {
        return std::nullopt;
    }
    return int(n);
}

}  // namespace

std::optional<RunOrder> readRunOrder(const QJsonObject& fields, QString* problem) {
    const QString name = fields.value(QLatin1String("op")).toString();
    const std::optional<RunOrder::Op> op = opNamed(name);
    if (!op) {
        *problem = QStringLiteral("unknown op '%1'").arg(name.left(40));
        return std::nullopt;
    }
    RunOrder order;
    order.op = *op;
    const QJsonValue trial = fields.value(QLatin1String("trial"));
    if (namesTrial(order.op)) {
        if (!trial.isString() || trial.toString().isEmpty()) {
            *problem = QStringLiteral("%1 needs \"trial\", a trial's id").arg(name);
            return std::nullopt;
        }
        order.trial = trial.toString();
    }
    switch (order.op) {
        case RunOrder::Op::SetMaxWorkers: {
            const std::optional<int> cap = count(fields, "max_workers");
            const QJsonValue type = fields.value(QLatin1String("node_type"));
            if (!cap) {
                *problem =
                    QStringLiteral("set_max_workers needs \"max_workers\", a whole number from 0");
                return std::nullopt;
            }
            if (!type.isUndefined() && !type.isNull() && !type.isString()) {
                *problem = QStringLiteral("set_max_workers: \"node_type\" must be a string");
                return std::nullopt;
            }
            order.maxWorkers = *cap;
            order.nodeType = type.toString();
            break;
        }
        case RunOrder::Op::SetLimits:
            if (Status s = parseLimitsChange(fields, &order.limits); !s) {
                *problem = QStringLiteral("set_limits: %1").arg(s.message());
                return std::nullopt;
            }
            break;
        case RunOrder::Op::SetTrialNote: {
            const QJsonValue note = fields.value(QLatin1String("note"));
            if (!note.isString()) {
                *problem =
                    QStringLiteral("set_trial_note needs \"note\", a string (empty: no note)");
                return std::nullopt;
            }
            order.note = note.toString();
            break;
        }
        case RunOrder::Op::Share: {
            const std::optional<int> grant = count(fields, "slots");
            if (!grant) {
                *problem = QStringLiteral("share needs \"slots\", a whole number from 0");
                return std::nullopt;
            }
            order.granted = *grant;
            order.why = fields.value(QLatin1String("why")).toString();
            break;
        }
        default:
            break;  // nothing more than the op (and the trial)
    }
    return order;
}

qint64 runOrderId(const QJsonObject& fields) {
    return qint64(fields.value(QLatin1String("id")).toDouble(0));
}

QByteArray runOrderLine(const RunOrder& order) {
    QJsonObject line{{"id", order.id}, {"op", nameOf(order.op)}};
    if (!order.trial.isEmpty()) {
        line.insert("trial", order.trial);
    }
    switch (order.op) {
        case RunOrder::Op::SetMaxWorkers:
            line.insert("max_workers", order.maxWorkers);
            if (!order.nodeType.isEmpty()) {
                line.insert("node_type", order.nodeType);
            }
            break;
        case RunOrder::Op::SetLimits:
            if (order.limits.numSamples) {
                line.insert("num_samples", *order.limits.numSamples);
            }
            if (order.limits.maxConcurrentTrials) {
                line.insert("max_concurrent_trials", *order.limits.maxConcurrentTrials);
            }
            break;
        case RunOrder::Op::SetTrialNote:
            line.insert("note", order.note);
            break;
        case RunOrder::Op::Share:
            line.insert("slots", order.granted);
            line.insert("why", order.why);
            break;
        default:
            break;
    }
    return QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
}

}  // namespace tunedeck::api
