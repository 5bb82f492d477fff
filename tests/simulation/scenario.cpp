#include "scenario.h"

#include <QStringList>
#include <random>

namespace tunedeck::sim {

namespace {

// A small deterministic generator over the seed (std::mt19937_64 is the same everywhere).
class Draw {
  public:
    explicit Draw(std::uint64_t seed) : engine_(seed) {}
    int between(int low, int high) {  // inclusive
        return std::uniform_int_distribution<int>(low, high)(engine_);
    }
    double uniform(double low, double high) {
        return std::uniform_real_distribution<double>(low, high)(engine_);
    }
    bool chance(double p) { return uniform(0, 1) < p; }
    template <typename T>
    const T& pick(const std::vector<T>& from) {
        return from[std::size_t(between(0, int(from.size()) - 1))];
    }

  private:
    std::mt19937_64 engine_;
};

}  // namespace

Scenario makeScenario(std::uint64_t seed) {
    Draw draw(seed * 0x9E3779B97F4A7C15ull + 1);
    Scenario s;
    s.seed = seed;
    s.nodes = draw.between(1, 3);
    s.slotsPerNode = draw.between(1, 3);
    s.minimize = draw.chance(0.5);
    s.metric = s.minimize ? QStringLiteral("loss") : QStringLiteral("score");

    const QString scheduler =
        draw.pick<QString>({"fifo", "fifo", "asha", "hyperband", "median", "pbt", "pb2", "bohb"});
    QString search = draw.pick<QString>({"random", "random", "tpe", "grid"});
    if (scheduler == QLatin1String("bohb")) {
        search = QStringLiteral("bohb");
    }
    QStringList yaml;
    yaml << QStringLiteral("name: sim-%1").arg(seed);
    yaml << QStringLiteral("trainable: {command: sh}");
    yaml << QStringLiteral("search_space:");
    if (search == QLatin1String("grid")) {
        yaml << QStringLiteral("  lr: {grid: [0.01, 0.1, 0.5]}");
        yaml << QStringLiteral("  width: {choice: [16, 32]}");
    } else {
        yaml << QStringLiteral("  lr: {loguniform: [0.001, 1.0]}");
        yaml << QStringLiteral("  momentum: {uniform: [0.0, 0.9]}");
    }
    const int samples = search == QLatin1String("grid") ? draw.between(1, 2) : draw.between(2, 14);
    yaml << QStringLiteral("num_samples: %1").arg(samples);
    yaml << QStringLiteral("metric: %1").arg(s.metric);
    yaml << QStringLiteral("mode: %1").arg(s.minimize ? "min" : "max");
    yaml << QStringLiteral("seed: %1").arg(draw.between(0, 1000));
    if (search != QLatin1String("grid")) {
        yaml << QStringLiteral("search: %1").arg(search);
    } else {
        yaml << QStringLiteral("search: random");
    }

    const bool movesThroughCheckpoints =
        scheduler == QLatin1String("hyperband") || scheduler == QLatin1String("bohb") ||
        scheduler == QLatin1String("pbt") || scheduler == QLatin1String("pb2");
    if (scheduler == QLatin1String("asha")) {
        s.maxT = draw.between(4, 20);
        yaml << QStringLiteral(
                    "scheduler: {type: asha, max_t: %1, grace_period: %2, "
                    "reduction_factor: %3}")
                    .arg(s.maxT)
                    .arg(draw.between(1, 3))
                    .arg(draw.between(2, 4));
    } else if (scheduler == QLatin1String("hyperband") || scheduler == QLatin1String("bohb")) {
        s.maxT = draw.pick<int>({4, 9, 12});
        yaml << QStringLiteral("scheduler: {type: hyperband, max_t: %1, reduction_factor: %2}")
                    .arg(s.maxT)
                    .arg(draw.between(2, 3));
    } else if (scheduler == QLatin1String("median")) {
        yaml << QStringLiteral(
                    "scheduler: {type: median, time_attr: training_iteration, "
                    "grace_period: %1, min_samples_required: %2, hard_stop: %3}")
                    .arg(draw.between(1, 4))
                    .arg(draw.between(1, 3))
                    .arg(draw.chance(0.8) ? "true" : "false");
    } else if (scheduler == QLatin1String("pbt")) {
        yaml << QStringLiteral("scheduler:");
        yaml << QStringLiteral("  type: pbt");
        yaml << QStringLiteral("  time_attr: training_iteration");
        yaml << QStringLiteral("  perturbation_interval: %1").arg(draw.between(2, 6));
        yaml << QStringLiteral("  quantile_fraction: %1").arg(draw.pick<double>({0.25, 0.5}));
        yaml << QStringLiteral("  synch: %1").arg(draw.chance(0.3) ? "true" : "false");
        // Told by the seed, not drawn: a draw here would change every later one, and the
        // regression seeds with them.
        if ((seed / 7) % 3 == 0) {
            yaml << QStringLiteral("  explore_command: [sim-explore]");  // the world answers
        }
        yaml << QStringLiteral("  hyperparam_mutations:");
        yaml << (search == QLatin1String("grid")
                     ? QStringLiteral("    lr: [0.01, 0.1, 0.5]")
                     : QStringLiteral("    lr: {loguniform: [0.001, 1.0]}"));
    } else if (scheduler == QLatin1String("pb2")) {
        if (search == QLatin1String("grid")) {
            search = QStringLiteral("random");
        }
        yaml << QStringLiteral("scheduler:");
        yaml << QStringLiteral("  type: pb2");
        yaml << QStringLiteral("  time_attr: training_iteration");
        yaml << QStringLiteral("  perturbation_interval: %1").arg(draw.between(2, 6));
        yaml << QStringLiteral("  hyperparam_bounds: {momentum: [0.0, 0.9]}");
    }
    if (scheduler == QLatin1String("pb2") &&
        yaml.contains(QStringLiteral("  lr: {grid: [0.01, 0.1, 0.5]}"))) {
        // pb2 bounds a numeric parameter of the space: use the continuous one.
        yaml.replace(yaml.indexOf(QStringLiteral("  lr: {grid: [0.01, 0.1, 0.5]}")),
                     QStringLiteral("  lr: {loguniform: [0.001, 1.0]}"));
        yaml.replace(yaml.indexOf(QStringLiteral("  width: {choice: [16, 32]}")),
                     QStringLiteral("  momentum: {uniform: [0.0, 0.9]}"));
    }

    // Checkpoints: none asked for, every N iterations, at the end, keeping 1 to 3.
    QStringList checkpoint;
    if (draw.chance(0.4)) {
        checkpoint << QStringLiteral("frequency: %1").arg(draw.between(1, 5));
    }
    if (draw.chance(0.25)) {
        checkpoint << QStringLiteral("at_end: true");
    }
    if (draw.chance(0.5)) {
        checkpoint << QStringLiteral("keep: %1").arg(draw.between(1, 3));
    }
    if (!checkpoint.isEmpty()) {
        yaml << QStringLiteral("checkpoint: {%1}").arg(checkpoint.join(QStringLiteral(", ")));
    }
    if (draw.chance(0.6)) {
        s.stopIteration = draw.between(3, 25);
        yaml << QStringLiteral("stop: {training_iteration: %1}").arg(s.stopIteration);
    }
    if (draw.chance(0.5)) {
        yaml << QStringLiteral("max_concurrent_trials: %1").arg(draw.between(1, 4));
    }
    s.trialFaults = draw.chance(0.6);
    s.stopGraceS = draw.pick<double>({3, 3, 10, 10, 30, 600});
    yaml << QStringLiteral(
                "failure: {max_failures: %1, heartbeat_timeout_s: %2, "
                "stop_grace_s: %3}")
                .arg(draw.pick<int>({0, 1, 2, 3, -1}))
                .arg(draw.pick<int>({5, 20}))
                .arg(s.stopGraceS);
    if (draw.chance(0.1)) {
        yaml << QStringLiteral("time_budget_s: %1").arg(draw.between(5, 60));
    }

    // The world's faults.
    if (draw.chance(0.2) && s.nodes > 1) {
        s.nodeLossAt = draw.uniform(0.5, 20);
        s.nodeBackAfterS = draw.uniform(1, 40);
    }
    if (draw.chance(0.25)) {
        s.engineCrashAt = draw.uniform(0.2, 25);
    }
    if (draw.chance(0.1)) {
        s.diskFullProbability = draw.uniform(0.05, 0.3);
    }
    s.slowSaveS = draw.chance(0.2) ? draw.uniform(0.5, 3) : 0.05;
    s.comparableResume = scheduler == QLatin1String("fifo") && search == QLatin1String("random") &&
                         !s.trialFaults && s.nodeLossAt == 0 && s.diskFullProbability == 0 &&
                         !yaml.join('\n').contains(QLatin1String("time_budget_s"));
    (void)movesThroughCheckpoints;
    s.asksParameters = search == QLatin1String("random") || search == QLatin1String("tpe");
    s.yaml = yaml.join(QLatin1Char('\n')) + QLatin1Char('\n');
    s.summary = QStringLiteral("%1/%2 on %3x%4 slots, %5 samples%6%7%8%9")
                    .arg(search, scheduler)
                    .arg(s.nodes)
                    .arg(s.slotsPerNode)
                    .arg(samples)
                    .arg(checkpoint.isEmpty() ? QString()
                                              : QStringLiteral(", checkpoint {%1}")
                                                    .arg(checkpoint.join(QStringLiteral(", "))))
                    .arg(s.nodeLossAt > 0 ? QStringLiteral(", node loss") : QString())
                    .arg(s.engineCrashAt > 0 ? QStringLiteral(", engine crash") : QString())
                    .arg(s.trialFaults ? QStringLiteral(", faulty trials") : QString());
    return s;
}

TrialBehaviour behaviourOf(const Scenario& scenario, std::int64_t trialIndex) {
    Draw draw(scenario.seed * 0xD1B54A32D192ED03ull + std::uint64_t(trialIndex) * 7919 + 3);
    TrialBehaviour b;
    b.epochs = draw.between(1, 30);
    b.stepS = draw.chance(0.3) ? draw.uniform(0.001, 0.05) : draw.uniform(0.1, 3);
    const int saves = draw.between(0, 5);
    b.saves = saves <= 2   ? TrialBehaviour::Saves::OnRequest
              : saves <= 4 ? TrialBehaviour::Saves::ThroughReports
                           : TrialBehaviour::Saves::Never;
    b.reportCheckpointEvery = draw.between(1, 6);
    b.quality = draw.uniform(0, 1);
    if (scenario.trialFaults) {
        b.crashAt = draw.chance(0.15) ? draw.between(1, 10) : 0;
        b.hangAt = draw.chance(0.05) ? draw.between(1, 10) : 0;
        b.ignoresStop = draw.chance(0.15);
        b.badLineAt = draw.chance(0.03) ? draw.between(1, 10) : 0;
    }
    return b;
}

}  // namespace tunedeck::sim
