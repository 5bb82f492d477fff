// The head's CPU cost of autoscaling (issue 19): one planScaling step (engine/core/autoscaler.h)
// at 10,000 waiting trials, the step the runtime's autoscaler driver takes every second and after
// every scheduling pass. The reference, measured in the same run, is the least any step must do:
// building the list of waiting trials it is given (what ExperimentRunner::scalingDemand makes per
// step). Thread CPU time, median of repeated steps; no figure is asserted.
//
//   bench_autoscaler [--trials N] [--repeats N]
//
// Built on request only (EXCLUDE_FROM_ALL): `cmake --build build --target bench_autoscaler &&
// build/bin/bench_autoscaler`.
#include <time.h>

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "core/autoscaler.h"

using namespace tunedeck;

namespace {

double threadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

// Median CPU milliseconds of `repeats` runs of `work`.
double medianMs(int repeats, const std::function<void()>& work) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const double start = threadCpuMs();
        work();
        times.push_back(threadCpuMs() - start);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

std::vector<WaitingTrial> demand(int trials, bool mixed) {
    std::vector<WaitingTrial> waiting;
    waiting.reserve(std::size_t(trials));
    for (int i = 0; i < trials; ++i) {
        WaitingTrial trial;
        trial.id = QStringLiteral("t%1").arg(i, 5, 10, QLatin1Char('0'));
        trial.request.cpu = mixed && i % 3 == 0 ? 4 : 1;
        trial.request.gpu = mixed && i % 2 == 0 ? 0.5 : 0;
        waiting.push_back(std::move(trial));
    }
    return waiting;
}

struct Scenario {
    const char* name;
    int readyBusy;  // ready nodes with trials
    int readyIdle;  // ready nodes idle past the timeout
    int launching;
    bool mixed;  // CPU-only and GPU trials of different sizes
};

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int trials = 10000;
    int repeats = 21;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--trials")) {
            trials = args[i + 1].toInt();
        } else if (args[i] == QLatin1String("--repeats")) {
            repeats = std::max(1, args[i + 1].toInt());
        }
    }
    AutoscalerSpec spec;
    spec.types = {{QStringLiteral("cpu-node"), 4, 0, 0, 0, 150},
                  {QStringLiteral("big-cpu"), 16, 0, 0, 0, 40},
                  {QStringLiteral("gpu-node"), 8, 2, 16000, 1, 60}};
    spec.maxWorkers = 250;
    spec.upscalingSpeed = 1.0;
    spec.idleTimeoutS = 300;

    const Scenario scenarios[] = {
        {"cold start (no node yet)", 0, 0, 0, false},
        {"200 nodes busy, 20 launching", 200, 0, 20, false},
        {"mixed CPU/GPU trials, 150 busy + 40 idle", 150, 40, 0, true},
    };
    std::printf("autoscaler step at %d waiting trials (median thread CPU of %d steps)\n", trials,
                repeats);
    std::printf("%-44s %12s %14s %8s %s\n", "scenario", "step ms", "reference ms", "ratio",
                "launches");
    for (const Scenario& scenario : scenarios) {
        std::vector<ScaledNode> nodes;
        const auto add = [&](int count, ScaledNode::State state, bool busy, double idleSince) {
            for (int i = 0; i < count; ++i) {
                ScaledNode node;
                node.id = QStringLiteral("node-%1").arg(nodes.size() + 1);
                node.type = spec.types[nodes.size() % spec.types.size()].name;
                node.state = state;
                node.cpuUsed = busy ? 2 : 0;
                node.idleSinceS = idleSince;
                nodes.push_back(node);
            }
        };
        add(scenario.readyBusy, ScaledNode::State::Ready, true, 0);
        add(scenario.readyIdle, ScaledNode::State::Ready, false, 0);
        add(scenario.launching, ScaledNode::State::Launching, false, 0);
        const std::vector<WaitingTrial> waiting = demand(trials, scenario.mixed);

        std::size_t sink = 0;
        const double reference =
            medianMs(repeats, [&] { sink += demand(trials, scenario.mixed).size(); });
        ScalingPlan plan;
        const double step =
            medianMs(repeats, [&] { plan = planScaling(spec, nodes, waiting, 1000.0); });
        int launches = 0;
        for (const ScalingPlan::Launch& launch : plan.launches) {
            launches += launch.count;
        }
        std::printf("%-44s %12.2f %14.2f %7.1fx %d (%zu terminations, %lld held back)%s\n",
                    scenario.name, step, reference, reference > 0 ? step / reference : 0.0,
                    launches, plan.terminations.size(), qlonglong(plan.heldBack.size()),
                    sink == 0 ? "?" : "");
    }
    std::printf(
        "A step a second costs the head this many ms of CPU per second (0.1 %% of a core "
        "per ms).\n");
    return 0;
}
