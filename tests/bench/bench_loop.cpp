// The experiment loop's cost per trial as a run grows, and the simulation's speed.
//   bench_loop [--trials N] [--seeds M] [--smoke]
// 1. N instant trials (default 1,000,000; FIFO, random search, one report each, 8 slots)
//    through the real ExperimentLoop, its effects answered at once, tick() after every trial
//    (the runtime ticks on a timer), its history counted but not kept: the CPU time of each
//    tenth of the run (thread CPU time, so a loaded machine disturbs it less than wall time), and
//    the last tenth's against the first (target: within 1.2x; a loop that walks every trial per
//    event or per tick grows with the run).
// 2. M seeds of the deterministic simulation (tests/simulation): seeds per second, and the
//    virtual seconds simulated per real second.
// Figures only; nothing is asserted.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHashSeed>
#include <cstdio>
#include <ctime>
#include <deque>
#include <functional>

#include "config/experiment_loader.h"
#include "core/experiment_loop.h"
#include "core/heap_tuning.h"
#include "counting_history.h"
#include "fixed_nodes.h"
#include "sim_world.h"

using namespace tunedeck;

namespace {

double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// Trials that start, report once and exit at once; one node of `cpus` CPUs.
class InstantWorld : public LoopClock, public LoopEffects {
  public:
    void attach(ExperimentLoop* loop) { loop_ = loop; }
    // Runs queued inputs until none is left; calls `each` after every trial that ended.
    void drain(const std::function<void()>& each) {
        while (!inputs_.empty()) {
            auto input = std::move(inputs_.front());
            inputs_.pop_front();
            now_ += 0.001;
            input();
            if (ended_ > reported_) {
                reported_ = ended_;
                each();
            }
        }
    }

    double now() const override { return now_; }

    Status startTrial(const Trial& trial, int attempt, const Placement&,
                      const GangPlacement&) override {
        const QString id = trial.id;
        inputs_.push_back([this, id, attempt] {
            loop_->processStarted(id, attempt);
            TrialLine line;
            line.kind = TrialLine::Kind::Report;
            line.metrics = QJsonObject{{"loss", 0.5}};
            loop_->trialLine(id, attempt, line);
        });
        return Status::ok();
    }
    void answer(const Trial& trial, const Placement&, TrialAnswer, const QString&) override {
        const QString id = trial.id;
        const LoopTrial* live = loop_->find(id);
        const int attempt = live ? live->attempt.number() : 0;
        inputs_.push_back([this, id, attempt] {
            ExitFacts done;
            done.code = 0;
            loop_->exited(id, attempt, done);
            ++ended_;
        });
    }
    void answerRequest(const Trial&, const Placement&, const QJsonObject&) override {}
    void endProcess(const Trial&, const Placement&, const QString&) override {}
    void commitCheckpoint(const Trial&, const Placement&, const CommitOrder&) override {}
    void discardScratch(const Placement&, const QString&) override {}
    void deleteCheckpoint(const Trial&, const Placement&, const QString&) override {}
    Status copyCheckpoint(const QString&, const QString&, const QJsonObject&) override {
        return Status::ok();
    }
    void attemptEnded(const Trial&, const GangPlacement&) override {}
    void exploreConfig(const QString&, const QStringList&, const QJsonObject&) override {
    }  // no pbt
    void eventRecorded(const QString&, std::int64_t, double, const QJsonObject&) override {}
    void resultRecorded(const QString&, std::int64_t, double, const QJsonObject&) override {}
    void statusShown(const Trial&, const QString&) override {}
    void warningShown(const QString&) override {}
    void noticeShown(const QString&) override {}
    void wakeAt(double) override {}
    void demandChanged() override {}
    void runEnded(int, const QString&) override {}

  private:
    ExperimentLoop* loop_ = nullptr;
    std::deque<std::function<void()>> inputs_;
    double now_ = 0;
    std::int64_t ended_ = 0;
    std::int64_t reported_ = 0;
};

void benchScale(std::int64_t trials) {
    const QString yaml = QStringLiteral(
                             "name: scale\ntrainable: {command: sh}\nsearch_space:\n"
                             "  x: {uniform: [0, 1]}\nnum_samples: %1\nmetric: loss\nmode: min\n"
                             "max_concurrent_trials: 8\nseed: 1\n")
                             .arg(trials);
    LoadResult<ExperimentSpec> spec = loadExperimentText(yaml, QStringLiteral("scale.yaml"));
    if (!spec.isOk()) {
        std::printf("scale: the experiment was refused: %s\n",
                    qPrintable(spec.errorLines().join("; ")));
        return;
    }
    CountingHistory history;
    InstantWorld world;
    FixedNodes nodes({nodeOfCpus(QStringLiteral("local"), 8)});
    LoopEnvironment env{&world, &history, &nodes, &world};
    ExperimentLoop loop(std::move(*spec.spec), QStringLiteral("/bench"), env, false);
    world.attach(&loop);
    QElapsedTimer clock;
    clock.start();
    if (Status s = loop.recover({}); !s) {
        std::printf("scale: recovery failed: %s\n", qPrintable(s.message()));
        return;
    }
    loop.begin();
    loop.schedule();
    const std::int64_t tenth = std::max<std::int64_t>(1, trials / 10);
    std::vector<double> tenths;
    std::int64_t done = 0;
    double last = threadCpuSeconds();
    world.drain([&] {
        loop.tick();
        if (++done % tenth == 0) {
            const double t = threadCpuSeconds();
            tenths.push_back((t - last) * 1e6 / double(tenth));  // µs per trial
            last = t;
        }
    });
    std::printf(
        "1. %lld instant trials through the loop (FIFO, random, 8 slots): %.1f s, exit %d\n",
        static_cast<long long>(done), double(clock.nsecsElapsed()) / 1e9, loop.exitCode());
    std::printf("   CPU per trial, each tenth of the run (us):");
    for (double t : tenths) {
        std::printf(" %.1f", t);
    }
    if (tenths.size() >= 2) {
        std::printf("\n   last tenth / first tenth: %.2fx   (target <= 1.2x)\n",
                    tenths.back() / tenths.front());
    } else {
        std::printf("\n");
    }
}

void benchSimulation(std::uint64_t seeds) {
    if (seeds == 0) {
        return;
    }
    QElapsedTimer clock;
    clock.start();
    double virtualS = 0;
    std::uint64_t failed = 0;
    for (std::uint64_t seed = 0; seed < seeds; ++seed) {
        const sim::Outcome outcome = sim::simulate(sim::makeScenario(seed));
        virtualS += outcome.virtualTime;
        failed += outcome.ok ? 0 : 1;
    }
    const double s = double(clock.nsecsElapsed()) / 1e9;
    std::printf(
        "2. the simulation, seeds 0..%llu: %.1f s, %.0f seeds/s, %.0f virtual s per s, "
        "%llu broke an invariant\n",
        static_cast<unsigned long long>(seeds - 1), s, double(seeds) / s, virtualS / s,
        static_cast<unsigned long long>(failed));
}

}  // namespace

int main(int argc, char** argv) {
    QHashSeed::setDeterministicGlobalSeed();
    tunedeck::keepFreedMemoryForReuse();
    QCoreApplication app(argc, argv);
    std::int64_t trials = 1000000;
    std::uint64_t seeds = 500;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--smoke")) {
            trials = 2000;
            seeds = 20;
        } else if (args[i] == QLatin1String("--trials") && i + 1 < args.size()) {
            trials = args[++i].toLongLong();
        } else if (args[i] == QLatin1String("--seeds") && i + 1 < args.size()) {
            seeds = args[++i].toULongLong();
        }
    }
    benchScale(trials);
    benchSimulation(seeds);
    return 0;
}
