// The part of ExperimentRunner that feeds an elastic cluster's autoscaler (autoscaler_driver.h):
// the demand it scales to, and its decisions recorded as `node` events and console lines.
#include "api/events.h"
#include "runtime/autoscaler_driver.h"
#include "runtime/experiment_runner.h"

namespace tunedeck {

namespace {

// Trials the searcher has not proposed yet count as demand, up to this many: enough for any
// cluster a step can start, few enough that a step stays cheap with num_samples: -1.
constexpr std::int64_t kMostFutureTrials = 1000;

}  // namespace

void ExperimentRunner::startAutoscaler() {
    AutoscalerDriver::Hooks hooks;
    hooks.demand = [this] { return scalingDemand(); };
    hooks.record = [this](const QString& nodeId, const QString& state, const QString& message,
                          const QJsonObject& details) {
        emitEvent(events::type::kNode, events::node(nodeId, state, details));
        if (!message.isEmpty()) {
            reporter_->notice(message);
        }
    };
    hooks.infeasible = [this](const ScalingPlan::Infeasible& infeasible) {
        failExperiment(kExitBadInput,
                       QStringLiteral("%1: resources_per_trial: no node type can hold trial %2: %3")
                           .arg(spec_.locationOf("resources_per_trial").toString(),
                                infeasible.trialId, infeasible.why));
    };
    autoscaler_ = std::make_unique<AutoscalerDriver>(autoscalerSpecOf(*spec_.clusterSpec),
                                                     *provider_, *pool_, std::move(hooks));
    autoscaler_->start();
}

std::vector<WaitingTrial> ExperimentRunner::scalingDemand() const {
    std::vector<WaitingTrial> demand;
    if (stopping_ || finished_) {
        return demand;
    }
    std::int64_t running = 0;
    for (const auto& [id, live] : trials_) {
        const TrialStatus status = live.trial.status;
        running += status == TrialStatus::Running ? 1 : 0;
        if ((status == TrialStatus::Pending || status == TrialStatus::Paused) && !live.heldByUser) {
            demand.push_back({id, spec_.resourcesPerTrial});
        }
    }
    if (searcherFinished_) {
        return demand;
    }
    // Trials are created one at a time, when none waits (RUNTIME.md, "Scheduling"): counted
    // alone, they would grow the cluster one node at a time, as Ray's capped pending trials do
    // (ray-project/ray #43451). The searcher's remaining trials are demand too.
    std::int64_t more = kMostFutureTrials;
    if (const std::optional<std::int64_t> total = searcher_->totalTrials()) {
        more = std::min(more, std::max<std::int64_t>(0, *total - nextTrialIndex_));
    }
    if (spec_.maxConcurrentTrials > 0) {
        more = std::min(more, std::max<std::int64_t>(0, spec_.maxConcurrentTrials - running -
                                                            std::int64_t(demand.size())));
    }
    for (std::int64_t i = 0; i < more; ++i) {
        demand.push_back({trialIdForIndex(nextTrialIndex_ + i), spec_.resourcesPerTrial});
    }
    return demand;
}

}  // namespace tunedeck
