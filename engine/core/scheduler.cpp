#include "core/scheduler.h"

#include <cmath>
#include <vector>

#include "core/algorithm_catalog.h"
#include "core/asha_scheduler.h"
#include "core/hyperband_scheduler.h"
#include "core/median_stopping.h"
#include "core/pb2_explore.h"
#include "core/pbt_replay.h"
#include "core/pbt_scheduler.h"
#include "core/resource_changing_scheduler.h"
#include "core/search_space.h"

namespace tunedeck {

namespace {

// Runs every trial to the end, in the order they were created (Ray's FIFOScheduler).
class FifoScheduler final : public Scheduler {
  public:
    SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) override {
        (void)trial;
        (void)result;
        return SchedulerDecision::proceed();
    }
};

struct SchedulerType {
    QString name;
    QStringList options;  // keys of the `scheduler:` mapping besides the type
    std::unique_ptr<Scheduler> (*make)(const ExperimentSpec& spec);
    // Checks option values once the keys are known good (null: nothing to check).
    Status (*validateOptions)(const ExperimentSpec& spec, QString* badKey) = nullptr;
    // It moves trials through checkpoints (pause and resume, or copy between trials).
    bool needsCheckpoints = false;
};

// One line per scheduler; validation and the list in error messages follow from it.
const std::vector<SchedulerType>& schedulerTypes() {
    static const std::vector<SchedulerType> types = {
        {QStringLiteral("fifo"),
         {},
         [](const ExperimentSpec&) -> std::unique_ptr<Scheduler> {
             return std::make_unique<FifoScheduler>();
         }},
        {QStringLiteral("asha"), ashaOptionNames(), makeAshaScheduler, validateAshaOptions},
        {QStringLiteral("median"), medianOptionNames(), makeMedianScheduler, validateMedianOptions},
        {QStringLiteral("hyperband"), hyperbandOptionNames(), makeHyperbandScheduler,
         validateHyperbandOptions, true},
        {QStringLiteral("pbt"), pbtOptionNames(), makePbtScheduler, validatePbtOptions, true},
        {QStringLiteral("pb2"), pb2OptionNames(), makePb2Scheduler, validatePb2Options, true},
        {QStringLiteral("pbt_replay"), pbtReplayOptionNames(), makePbtReplayScheduler,
         validatePbtReplayOptions, true},
        {QStringLiteral("resource_changing"), resourceChangingOptionNames(),
         makeResourceChangingScheduler, validateResourceChangingOptions, true},
    };
    return types;
}

std::optional<double> numberAt(const QJsonObject& result, const QString& key) {
    QJsonValue value = result.value(key);
    if (value.isUndefined()) {
        value = valueAtPath(result, key);
    }
    if (value.isBool()) {
        return value.toBool() ? 1.0 : 0.0;  // `stop: {done: 1}` on a boolean result
    }
    if (!value.isDouble() || std::isnan(value.toDouble())) {
        return std::nullopt;
    }
    return value.toDouble();
}

QString num(double value) {
    return QString::number(value, 'g', 12);
}

}  // namespace

std::optional<QString> Scheduler::chooseTrialToRun(const std::vector<const Trial*>& waiting) {
    // As Ray's FIFOScheduler: PENDING trials first, then PAUSED ones, each in creation order. A
    // trial that paused to give way is not the one that takes its slot back.
    for (const TrialStatus status : {TrialStatus::Pending, TrialStatus::Paused}) {
        for (const Trial* trial : waiting) {
            if (trial && trial->status == status) {
                return trial->id;
            }
        }
    }
    return std::nullopt;
}

QStringList knownSchedulers() {
    return algorithmNames(schedulerTypes());
}

QStringList schedulerOptionNames(const QString& type) {
    const SchedulerType* found = findAlgorithm(schedulerTypes(), type);
    return found ? found->options : QStringList();
}

Status validateScheduler(const ExperimentSpec& spec, QString* badKey) {
    static const AlgorithmFamily family{QStringLiteral("scheduler"), QStringLiteral("type"),
                                        QStringLiteral("scheduler"), QStringLiteral("schedulers")};
    const SchedulerType* type = findAlgorithm(schedulerTypes(), spec.scheduler.name);
    const Status choice = checkAlgorithmChoice(spec.scheduler, knownSchedulers(),
                                               type ? &type->options : nullptr, family, badKey);
    if (!choice.isOk()) {
        return choice;
    }
    auto fail = [&](const QString& key, const QString& message) {
        if (badKey) {
            *badKey = key;
        }
        return Status::invalid(message);
    };
    if (spec.isMultiObjective() && type->name != QLatin1String("fifo") &&
        !spec.scheduler.options.contains(QStringLiteral("metric"))) {
        return fail(QStringLiteral("scheduler.type"),
                    QStringLiteral("%1 judges trials by one metric; with several objectives, "
                                   "name it in scheduler.metric (and scheduler.mode)")
                        .arg(type->name));
    }
    if (type->needsCheckpoints && !spec.checkpoint.enabled) {
        return fail(QStringLiteral("scheduler.type"),
                    QStringLiteral("%1 moves trials through checkpoints, but checkpoint.enabled "
                                   "is false; make the trainable save (tunedeck.on_save) and "
                                   "remove that line, or use asha")
                        .arg(type->name));
    }
    return type->validateOptions ? type->validateOptions(spec, badKey) : Status::ok();
}

std::unique_ptr<Scheduler> makeScheduler(const ExperimentSpec& spec) {
    const SchedulerType* type = findAlgorithm(schedulerTypes(), spec.scheduler.name);
    return type ? type->make(spec) : nullptr;
}

std::optional<QString> stopReason(const StopCriteria& stop, const QJsonObject& result) {
    if (const auto done = numberAt(result, QStringLiteral("done")); done && *done != 0) {
        return QStringLiteral("the trial reported done");
    }
    if (stop.trainingIteration) {
        const auto iteration = numberAt(result, QStringLiteral("training_iteration"));
        if (iteration && *iteration >= static_cast<double>(*stop.trainingIteration)) {
            return QStringLiteral("training_iteration >= %1").arg(*stop.trainingIteration);
        }
    }
    if (stop.timeTotalS) {
        const auto seconds = numberAt(result, QStringLiteral("time_total_s"));
        if (seconds && *seconds >= *stop.timeTotalS) {
            return QStringLiteral("time_total_s >= %1").arg(num(*stop.timeTotalS));
        }
    }
    for (const auto& threshold : stop.thresholds) {
        const auto value = numberAt(result, threshold.metric);
        if (!value) {
            continue;
        }
        if (threshold.atLeast ? *value >= threshold.value : *value <= threshold.value) {
            return QStringLiteral("%1 %2 %3")
                .arg(threshold.metric,
                     threshold.atLeast ? QStringLiteral(">=") : QStringLiteral("<="),
                     num(threshold.value));
        }
    }
    return std::nullopt;
}

}  // namespace tunedeck
