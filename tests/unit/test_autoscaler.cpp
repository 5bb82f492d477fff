// The autoscaler's policy with scripted demand and node states: what it launches for the
// waiting trials, what it keeps back, what it terminates, and what it refuses.
#include <QTest>

#include "core/autoscaler.h"
#include "core/trial.h"

using namespace tunedeck;

namespace {

NodeTypeSpec nodeType(const QString& name, double cpu, double gpu, int minWorkers, int maxWorkers) {
    NodeTypeSpec type;
    type.name = name;
    type.cpu = cpu;
    type.gpu = gpu;
    type.minWorkers = minWorkers;
    type.maxWorkers = maxWorkers;
    return type;
}

AutoscalerSpec cpuAndGpuTypes(int maxWorkers = 10) {
    AutoscalerSpec spec;
    spec.types = {nodeType("cpu-node", 4, 0, 0, 10), nodeType("gpu-node", 8, 2, 0, 4)};
    spec.maxWorkers = maxWorkers;
    return spec;
}

std::vector<WaitingTrial> trials(int count, double cpu, double gpu = 0, int firstIndex = 0) {
    std::vector<WaitingTrial> out;
    for (int i = 0; i < count; ++i) {
        WaitingTrial trial;
        trial.id = trialIdForIndex(firstIndex + i);
        trial.request.cpu = cpu;
        trial.request.gpu = gpu;
        out.push_back(trial);
    }
    return out;
}

ScaledNode node(const QString& id, const QString& type, ScaledNode::State state, double cpuUsed = 0,
                double idleSinceS = 0) {
    ScaledNode n;
    n.id = id;
    n.type = type;
    n.state = state;
    n.cpuUsed = cpuUsed;
    n.idleSinceS = idleSinceS;
    return n;
}

int launched(const ScalingPlan& plan, const QString& type) {
    int count = 0;
    for (const ScalingPlan::Launch& launch : plan.launches) {
        count += launch.type == type ? launch.count : 0;
    }
    return count;
}

const ScaledNode::State kReady = ScaledNode::State::Ready;
const ScaledNode::State kLaunching = ScaledNode::State::Launching;

}  // namespace

class TestAutoscaler : public QObject {
    Q_OBJECT

  private slots:
    void nothingWaitingLaunchesNothing() {
        const ScalingPlan plan = planScaling(cpuAndGpuTypes(), {}, {}, 0);
        QVERIFY(plan.launches.empty());
        QVERIFY(plan.terminations.empty());
    }

    // Exactly what the waiting trials need: 6 one-CPU trials fill two 4-CPU nodes, not six.
    void waitingTrialsArePackedOntoAsFewNodesAsHoldThem() {
        const ScalingPlan plan = planScaling(cpuAndGpuTypes(), {}, trials(6, 1), 0);
        QCOMPARE(launched(plan, "cpu-node"), 2);
        QCOMPARE(launched(plan, "gpu-node"), 0);
        QCOMPARE(plan.launches.front().forTrials.size(), 6);
        QCOMPARE(plan.launches.front().reason, QStringLiteral("for t00000..t00005 (6 trials)"));
    }

    void gpuTrialsGetTheTypeWithGpus() {
        const ScalingPlan plan = planScaling(cpuAndGpuTypes(), {}, trials(3, 1, 1), 0);
        QCOMPARE(launched(plan, "gpu-node"), 2);  // two cards a node
        QCOMPARE(launched(plan, "cpu-node"), 0);
    }

    void roomOnReadyAndLaunchingNodesIsUsedFirst() {
        const std::vector<ScaledNode> nodes = {node("a", "cpu-node", kReady, 3),
                                               node("b", "cpu-node", kLaunching)};
        const ScalingPlan plan = planScaling(cpuAndGpuTypes(), nodes, trials(5, 1), 0);
        QVERIFY(plan.launches.empty());
        const ScalingPlan more = planScaling(cpuAndGpuTypes(), nodes, trials(6, 1), 0);
        QCOMPARE(launched(more, "cpu-node"), 1);
    }

    // ray-project/ray #43451: Tune caps pending trials, so Ray grows linearly. Here 1,000
    // waiting trials reach max_workers in one step when upscaling_speed allows it...
    void aThousandWaitingTrialsReachMaxWorkersInOneStep() {
        AutoscalerSpec spec = cpuAndGpuTypes(50);
        spec.types[0].maxWorkers = 50;
        spec.upscalingSpeed = 99999;
        const ScalingPlan plan = planScaling(spec, {}, trials(1000, 1), 0);
        QCOMPARE(launched(plan, "cpu-node"), 50);
        QCOMPARE(plan.heldBack.size(), 1000 - 50 * 4);
    }

    // ... and no faster than upscaling_speed says: max(5, speed x nodes) launches pending.
    void upscalingSpeedBoundsThePendingLaunches() {
        AutoscalerSpec spec = cpuAndGpuTypes(100);
        spec.types[0].maxWorkers = 100;
        spec.upscalingSpeed = 1.0;
        QCOMPARE(launched(planScaling(spec, {}, trials(1000, 1), 0), "cpu-node"), 5);
        std::vector<ScaledNode> twenty;
        for (int i = 0; i < 20; ++i) {
            twenty.push_back(node(QStringLiteral("n%1").arg(i), "cpu-node", kReady, 4));
        }
        QCOMPARE(launched(planScaling(spec, twenty, trials(1000, 1), 0), "cpu-node"), 20);
        twenty[0].state = kLaunching;
        twenty[0].cpuUsed = 0;
        // One launch already pending counts against the 20 (and its room takes 4 trials).
        QCOMPARE(launched(planScaling(spec, twenty, trials(1000, 1), 0), "cpu-node"), 19);
    }

    void maxWorkersOfATypeAndOfTheClusterAreNeverExceeded() {
        AutoscalerSpec spec = cpuAndGpuTypes(3);
        const ScalingPlan plan = planScaling(spec, {}, trials(40, 1), 0);
        QCOMPARE(launched(plan, "cpu-node"), 3);
        spec.maxWorkers = 10;
        spec.types[1].maxWorkers = 1;
        const ScalingPlan gpus = planScaling(spec, {}, trials(8, 1, 1), 0);
        QCOMPARE(launched(gpus, "gpu-node"), 1);
        QCOMPARE(gpus.heldBack.size(), 6);
    }

    // ray-project/ray #20968: a trial no node type can hold hangs forever in Ray. Here it is
    // refused with the type that comes closest.
    void aTrialNoTypeCanHoldIsRefusedWithTheClosestType() {
        std::vector<WaitingTrial> waiting = trials(1, 8, 4);
        const ScalingPlan plan = planScaling(cpuAndGpuTypes(), {}, waiting, 0);
        QCOMPARE(plan.infeasible.size(), std::size_t(1));
        QCOMPARE(plan.infeasible[0].trialId, QStringLiteral("t00000"));
        QCOMPARE(plan.infeasible[0].closestType, QStringLiteral("gpu-node"));
        QCOMPARE(plan.infeasible[0].why,
                 QStringLiteral("needs 8 CPUs, 4 GPUs; node type 'gpu-node' (the closest) has "
                                "8 CPUs, 2 GPUs"));
        QVERIFY(plan.launches.empty());
    }

    void minWorkersAreLaunchedWithoutDemand() {
        AutoscalerSpec spec = cpuAndGpuTypes();
        spec.types[0].minWorkers = 2;
        const ScalingPlan plan = planScaling(spec, {node("a", "cpu-node", kReady)}, {}, 0);
        QCOMPARE(launched(plan, "cpu-node"), 1);
        QCOMPARE(plan.launches.front().reason, QStringLiteral("min_workers of cpu-node is 2"));
    }

    void idleNodesGoAfterTheTimeoutButNeverBelowMinWorkers() {
        AutoscalerSpec spec = cpuAndGpuTypes();
        spec.idleTimeoutS = 300;
        spec.types[0].minWorkers = 1;
        const std::vector<ScaledNode> nodes = {node("a", "cpu-node", kReady, 0, 0),
                                               node("b", "cpu-node", kReady, 0, 100),
                                               node("c", "cpu-node", kReady, 2, 0)};
        QVERIFY(planScaling(spec, nodes, {}, 299).terminations.empty());
        const ScalingPlan plan = planScaling(spec, nodes, {}, 1000);
        // a and b are idle; c is busy; one idle one stays for min_workers... c counts for it.
        QCOMPARE(plan.terminations.size(), std::size_t(2));
        QCOMPARE(plan.terminations[0].nodeId, QStringLiteral("a"));
        QCOMPARE(plan.terminations[0].reason,
                 QStringLiteral("idle for 1000 s (idle_timeout_minutes: 5)"));
        const std::vector<ScaledNode> idleOnly = {node("a", "cpu-node", kReady, 0, 0),
                                                  node("b", "cpu-node", kReady, 0, 100)};
        const ScalingPlan keepOne = planScaling(spec, idleOnly, {}, 1000);
        QCOMPARE(keepOne.terminations.size(), std::size_t(1));
        QCOMPARE(keepOne.terminations[0].nodeId, QStringLiteral("a"));
    }

    void anIdleNodeAWaitingTrialCanUseStays() {
        const std::vector<ScaledNode> nodes = {node("a", "cpu-node", kReady, 0, 0)};
        const ScalingPlan plan = planScaling(cpuAndGpuTypes(), nodes, trials(1, 1), 1000);
        QVERIFY(plan.terminations.empty());
        QVERIFY(plan.launches.empty());
    }

    // max_workers lowered while running: idle nodes go first, then busy ones.
    void loweredMaxWorkersTerminatesIdleNodesFirst() {
        const std::vector<ScaledNode> nodes = {node("busy", "cpu-node", kReady, 4, 0),
                                               node("idle", "cpu-node", kReady, 0, 50),
                                               node("busy2", "cpu-node", kReady, 1, 0)};
        const ScalingPlan plan = planScaling(cpuAndGpuTypes(1), nodes, {}, 60);
        QCOMPARE(plan.terminations.size(), std::size_t(2));
        QCOMPARE(plan.terminations[0].nodeId, QStringLiteral("idle"));
        QCOMPARE(plan.terminations[0].reason, QStringLiteral("max_workers is 1"));
    }
};

QTEST_APPLESS_MAIN(TestAutoscaler)
#include "test_autoscaler.moc"
