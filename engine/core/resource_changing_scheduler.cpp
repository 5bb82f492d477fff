#include "core/resource_changing_scheduler.h"

#include "core/asha_scheduler.h"
#include "core/hyperband_scheduler.h"
#include "core/median_stopping.h"
#include "core/scheduler_options.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

const QString kBase = QStringLiteral("base");
const QString kPolicy = QStringLiteral("policy");
const QString kMinIterations = QStringLiteral("min_iterations");
constexpr int kDefaultMinIterations = 4;

// The schedulers a resource_changing scheduler can wrap: those that decide at each result
// without moving trials through copies of others (PBT's exploits change a trial's config too).
const QStringList& wrappableBases() {
    static const QStringList bases{QStringLiteral("fifo"), QStringLiteral("asha"),
                                   QStringLiteral("median"), QStringLiteral("hyperband")};
    return bases;
}

class ResourceChangingScheduler final : public Scheduler {
  public:
    ResourceChangingScheduler(std::unique_ptr<Scheduler> base, const ExperimentSpec& spec)
        : base_(std::move(base)),
          objective_(objectiveOf(spec)),
          baseWorkers_(spec.gang.workers),
          policy_(spec.scheduler.options.value(kPolicy).toString() == QLatin1String("top")
                      ? ResourcePolicy::Top
                      : ResourcePolicy::Distribute),
          minIterations_(
              spec.scheduler.options.value(kMinIterations).toInt(kDefaultMinIterations)) {}

    void onTrialAdd(const Trial& trial) override { base_->onTrialAdd(trial); }

    SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) override {
        SchedulerDecision decision = base_->onResult(trial, result);
        Sized& sized = running_[trial.id];
        sized.workers = trial.workers > 0 ? trial.workers : baseWorkers_;
        sized.score = finiteNumberAt(result, objective_.metric);
        ++sized.resultsSinceChange;
        if (decision.action != SchedulerDecision::Action::Continue || decision.checkpoint) {
            if (decision.action != SchedulerDecision::Action::Continue) {
                running_.erase(trial.id);
            }
            return decision;
        }
        if (sized.resultsSinceChange < minIterations_) {
            return decision;
        }
        std::vector<SizedTrial> trials;
        for (const auto& [id, t] : running_) {
            trials.push_back({id, t.workers, t.score});
        }
        const int toHandOut = workerSlots_ - waiting_ * baseWorkers_;
        for (const ResourceChange& change :
             planResourceChanges(trials, toHandOut, baseWorkers_, policy_, objective_.mode)) {
            if (change.trialId != trial.id) {
                continue;
            }
            // Growing waits until the slots are free; shrinking gives them back now.
            if (change.toWorkers > change.fromWorkers && !roomToGrow(change)) {
                return decision;
            }
            // It comes back with its new size: the plan counts it so, while it restarts.
            sized.workers = change.toWorkers;
            sized.resultsSinceChange = 0;
            return SchedulerDecision::resize(
                change.toWorkers, QStringLiteral("resource_changing: %1").arg(change.reason));
        }
        return decision;
    }

    void onComplete(const Trial& trial, const QJsonObject& lastResult) override {
        running_.erase(trial.id);
        base_->onComplete(trial, lastResult);
    }
    void onError(const Trial& trial) override {
        running_.erase(trial.id);
        base_->onError(trial);
    }
    void onSearcherIdle() override { base_->onSearcherIdle(); }
    std::optional<QString> chooseTrialToRun(const std::vector<const Trial*>& waiting) override {
        return base_->chooseTrialToRun(waiting);
    }
    void onTrialsWaiting(int count) override {
        waiting_ = count;
        base_->onTrialsWaiting(count);
    }
    void onWorkerSlots(int count) override { workerSlots_ = count; }
    bool sharesSlots() const override { return base_->sharesSlots(); }
    std::vector<StopOrder> takeStopOrders() override { return base_->takeStopOrders(); }
    std::vector<QString> exploitsDue() const override { return base_->exploitsDue(); }
    std::optional<SchedulerDecision> takeExploitDue(const QString& trialId) override {
        return base_->takeExploitDue(trialId);
    }
    std::vector<std::pair<QString, QString>> requiredResultKeys() const override {
        return base_->requiredResultKeys();
    }
    std::optional<QString> endReached(const QJsonObject& result) const override {
        return base_->endReached(result);
    }
    QJsonObject saveState() const override { return {{"base", base_->saveState()}}; }
    Status restoreState(const QJsonObject& state) override {
        return base_->restoreState(state.value("base").toObject());
    }

  private:
    struct Sized {
        int workers = 1;
        std::optional<double> score;
        int resultsSinceChange = 0;
    };

    // The slots a trial may grow into: those no running trial holds now.
    bool roomToGrow(const ResourceChange& change) const {
        int held = 0;
        for (const auto& [id, t] : running_) {
            held += t.workers;
        }
        return held - change.fromWorkers + change.toWorkers <=
               workerSlots_ - waiting_ * baseWorkers_;
    }

    std::unique_ptr<Scheduler> base_;
    Objective objective_;
    int baseWorkers_ = 1;
    ResourcePolicy policy_ = ResourcePolicy::Distribute;
    int minIterations_ = kDefaultMinIterations;
    int workerSlots_ = 0;  // 0 until the runtime says: nothing to hand out
    int waiting_ = 0;
    std::map<QString, Sized> running_;  // trials seen reporting and not paused, ended or failed
};

}  // namespace

QStringList resourceChangingOptionNames() {
    // The bases' own lists (not schedulerOptionNames: this list is part of the table it reads).
    QStringList names{kBase, kPolicy, kMinIterations};
    for (const QStringList& options :
         {ashaOptionNames(), medianOptionNames(), hyperbandOptionNames()}) {
        for (const QString& option : options) {
            if (!names.contains(option)) {
                names << option;
            }
        }
    }
    return names;
}

ExperimentSpec baseSchedulerSpec(const ExperimentSpec& spec) {
    ExperimentSpec base = spec;
    base.scheduler.name = spec.scheduler.options.value(kBase).toString(QStringLiteral("fifo"));
    for (const QString& own : {kBase, kPolicy, kMinIterations}) {
        base.scheduler.options.remove(own);
    }
    return base;
}

Status validateResourceChangingOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    const QJsonValue base = options.value(kBase);
    if (!base.isUndefined() && !wrappableBases().contains(base.toString())) {
        return optionError(
            badKey, kBase,
            QStringLiteral("base must be one of %1, got %2")
                .arg(wrappableBases().join(QStringLiteral(", ")),
                     base.isString() ? base.toString() : QStringLiteral("a non-string")));
    }
    const QJsonValue policy = options.value(kPolicy);
    if (!policy.isUndefined() && policy.toString() != QLatin1String("distribute") &&
        policy.toString() != QLatin1String("top")) {
        return optionError(
            badKey, kPolicy,
            QStringLiteral("policy must be distribute or top, got %1")
                .arg(policy.isString() ? policy.toString() : QStringLiteral("a non-string")));
    }
    const QJsonValue every = options.value(kMinIterations);
    if (!every.isUndefined() &&
        (!every.isDouble() || every.toDouble() < 1 || every.toDouble() != double(every.toInt()))) {
        return optionError(badKey, kMinIterations,
                           QStringLiteral("min_iterations must be a whole number >= 1"));
    }
    if (!spec.checkpoint.enabled) {
        return optionError(badKey, QStringLiteral("type"),
                           QStringLiteral("resource_changing restarts trials from checkpoints, but "
                                          "checkpoint.enabled is false"));
    }
    if (objectiveOf(spec).metric.isEmpty()) {
        return optionError(badKey, QStringLiteral("type"),
                           QStringLiteral("resource_changing ranks trials by a metric: set "
                                          "metric (or scheduler.metric)"));
    }
    const ExperimentSpec baseSpec = baseSchedulerSpec(spec);
    QString baseKey;
    const Status baseOk = validateScheduler(baseSpec, &baseKey);
    if (!baseOk.isOk() && badKey) {
        *badKey = baseKey;
    }
    return baseOk;
}

std::unique_ptr<Scheduler> makeResourceChangingScheduler(const ExperimentSpec& spec) {
    std::unique_ptr<Scheduler> base = makeScheduler(baseSchedulerSpec(spec));
    if (!base) {
        return nullptr;
    }
    return std::make_unique<ResourceChangingScheduler>(std::move(base), spec);
}

}  // namespace tunedeck
