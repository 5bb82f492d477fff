// ExperimentRunner feeds an elastic cluster's autoscaler (autoscaler_driver.h):
// the demand it scales to, and its decisions recorded as `node` events and console lines.
#include "core/events.h"
#include "runtime/autoscaler_driver.h"
#include "runtime/experiment_runner.h"

namespace tunedeck {

namespace {

// Trials the searcher has not proposed yet count as demand, up to this many: enough for any
// cluster a step can start, few enough that a step stays cheap with num_samples: -1.
constexpr std::int64_t kMostFutureTrials = 1000;

}  // namespace

Status ExperimentRunner::setMaxWorkers(const QString& nodeType, int maxWorkers) {
    if (!autoscaler_) {
        return Status::invalid(
            tr("set_max_workers: this experiment's cluster is not autoscaled "
               "(its nodes are listed)"));
    }
    return autoscaler_->setMaxWorkers(nodeType, maxWorkers);
}

void ExperimentRunner::startAutoscaler() {
    AutoscalerDriver::Hooks hooks;
    hooks.demand = [this] { return scalingDemand(); };
    hooks.record = [this](const QString& nodeId, const QString& state, const QString& message,
                          const QJsonObject& details) {
        loop_->recordEvent(events::type::kNode, events::node(nodeId, state, details));
        if (!message.isEmpty()) {
            reporter_->notice(message);
        }
    };
    hooks.infeasible = [this](const ScalingPlan::Infeasible& infeasible) {
        loop_->fail(kExitBadInput,
                    QStringLiteral("%1: resources_per_trial: no node type can hold trial %2: %3")
                        .arg(spec().locationOf("resources_per_trial").toString(),
                             infeasible.trialId, infeasible.why));
    };
    autoscaler_ = std::make_unique<AutoscalerDriver>(autoscalerSpecOf(*spec().clusterSpec),
                                                     *provider_, *pool_, std::move(hooks));
    autoscaler_->start();
}

std::vector<WaitingTrial> ExperimentRunner::scalingDemand() const {
    const TrialDemand now = loop_->demand(kMostFutureTrials);
    std::vector<WaitingTrial> demand;
    for (const QString& id : now.waiting) {
        demand.push_back({id, spec().resourcesPerTrial});
    }
    // The trials the searcher will still add get the ids it will give them.
    const std::int64_t next = std::int64_t(loop_->trials().size());
    for (std::int64_t i = 0; i < now.future; ++i) {
        demand.push_back({trialIdForIndex(next + i), spec().resourcesPerTrial});
    }
    return demand;
}

}  // namespace tunedeck
