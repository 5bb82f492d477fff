#include "pbt_toy.h"

#include <QJsonArray>
#include <QMap>
#include <cstdio>

#include "core/search_space.h"
#include "trial_simulation.h"

namespace tunedeck::bench {

namespace {

const QString kQ = QStringLiteral("Q");
constexpr double kLearningRate = 0.01;
constexpr double kThetaStart = 0.9;
// Steps between PBT's looks at a member (the paper's toy "ready" criterion).
constexpr int kPerturbationInterval = 4;

class ToyTrainable final : public SimTrainable {
  public:
    explicit ToyTrainable(const QJsonObject& config) { setConfig(config); }

    QJsonObject step() override {
        // Gradient ascent on Q_hat: dQ_hat/dtheta_i = -2 h_i theta_i.
        for (int i = 0; i < 2; ++i) {
            theta_[i] -= kLearningRate * 2 * h_[i] * theta_[i];
        }
        const double q = 1.2 - (theta_[0] * theta_[0] + theta_[1] * theta_[1]);
        const double qHat = 1.2 - (h_[0] * theta_[0] * theta_[0] + h_[1] * theta_[1] * theta_[1]);
        return {{kQ, q}, {QStringLiteral("Q_hat"), qHat}};
    }
    // Ends by the experiment's stop criterion, as the trial's own iteration counts.
    bool finished() const override { return false; }
    std::unique_ptr<SimTrainable> clone() const override {
        return std::make_unique<ToyTrainable>(*this);
    }
    void setConfig(const QJsonObject& config) override {
        h_[0] = config.value(QStringLiteral("h0")).toDouble();
        h_[1] = config.value(QStringLiteral("h1")).toDouble();
    }

  private:
    double theta_[2] = {kThetaStart, kThetaStart};
    double h_[2] = {0, 0};
};

Parameter unitParameter(const QString& name) {
    Parameter p;
    p.name = name;
    p.kind = Parameter::Kind::Sampled;
    p.domain.kind = DomainKind::Uniform;
    p.domain.low = 0;
    p.domain.high = 1;
    return p;
}

ExperimentSpec toySpec(const BenchSizes& sizes, std::uint64_t seed, bool pbt) {
    SearchSpace space;
    space.parameters = {unitParameter(QStringLiteral("h0")), unitParameter(QStringLiteral("h1"))};
    ExperimentSpec spec =
        benchSpec(space, kQ, MetricMode::Max, seed, QStringLiteral("random"), sizes.pbtPopulation);
    spec.stop.trainingIteration = sizes.pbtSteps;
    if (pbt) {
        const QJsonObject unit{{QStringLiteral("uniform"), QJsonArray{0, 1}}};
        spec.scheduler.name = QStringLiteral("pbt");
        spec.scheduler.options = {
            {QStringLiteral("time_attr"), QStringLiteral("training_iteration")},
            {QStringLiteral("perturbation_interval"), kPerturbationInterval},
            {QStringLiteral("hyperparam_mutations"),
             QJsonObject{{QStringLiteral("h0"), unit}, {QStringLiteral("h1"), unit}}}};
        spec.scheduler.mutations = space;
    }
    return spec;
}

QString hOf(const QJsonObject& config) {
    return QStringLiteral("h=(%1, %2)")
        .arg(config.value(QStringLiteral("h0")).toDouble(), 0, 'f', 2)
        .arg(config.value(QStringLiteral("h1")).toDouble(), 0, 'f', 2);
}

struct ToyRun {
    double bestQ = 0;
    SimOutcome outcome;
    QString winner;
    QMap<QString, QJsonObject> firstConfig;
};

ToyRun runToy(const ExperimentSpec& spec, int population) {
    TrialSimulation simulation(spec, population, [](const QJsonObject& config) {
        return std::make_unique<ToyTrainable>(config);
    });
    ToyRun run;
    simulation.setObserver([&run](const Trial& trial, const QJsonObject&, std::int64_t) {
        if (!run.firstConfig.contains(trial.id)) {
            run.firstConfig.insert(trial.id, trial.config);
        }
    });
    run.outcome = simulation.run();
    run.bestQ = -1e300;
    for (const Trial& trial : run.outcome.trials) {
        const double q = trial.lastResult.value(kQ).toDouble(-1e300);
        if (q > run.bestQ) {
            run.bestQ = q;
            run.winner = trial.id;
        }
    }
    return run;
}

// Where the winner's final theta came from, oldest first: each hop is a trial training some
// steps with its h, then another trial copying that checkpoint.
QJsonArray lineageOf(const ToyRun& run) {
    struct Segment {
        QString trial;
        std::int64_t from = 0;  // steps (from, to]
        std::int64_t to = 0;
        QJsonObject config;
        const SimExploit* copied = nullptr;  // how this segment's start state arrived
    };
    std::vector<Segment> segments;
    QString current = run.winner;
    std::int64_t at = 0;
    for (const Trial& trial : run.outcome.trials) {
        if (trial.id == current) {
            at = trial.iteration;
        }
    }
    for (int guard = 0; guard < 10000; ++guard) {
        const SimExploit* last = nullptr;
        for (const SimExploit& e : run.outcome.exploits) {
            if (e.trialId == current && e.iteration <= at) {
                last = &e;
            }
        }
        if (!last) {
            segments.push_back({current, 0, at, run.firstConfig.value(current), nullptr});
            break;
        }
        segments.push_back({current, last->iteration, at, last->config, last});
        current = last->source;
        at = last->sourceIteration;
    }
    QJsonArray lines;
    for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
        QString line;
        if (it->copied) {
            line = QStringLiteral("%1 at its step %2 copied %3's checkpoint of step %4, then ")
                       .arg(it->trial)
                       .arg(it->copied->iteration)
                       .arg(it->copied->source)
                       .arg(it->copied->sourceIteration);
        } else {
            line = QStringLiteral("%1 ").arg(it->trial);
        }
        line += QStringLiteral("trained steps %1-%2 with %3")
                    .arg(it->from + 1)
                    .arg(it->to)
                    .arg(hOf(it->config));
        lines.append(line);
    }
    return lines;
}

}  // namespace

QJsonObject runPbtToy(const BenchSizes& sizes) {
    QJsonObject out{{QStringLiteral("population"), sizes.pbtPopulation},
                    {QStringLiteral("steps"), sizes.pbtSteps},
                    {QStringLiteral("interval"), kPerturbationInterval}};
    QJsonArray pbtQ;
    QJsonArray randomQ;
    QJsonArray exploits;
    for (int seed = 0; seed < sizes.pbtSeeds; ++seed) {
        const ExperimentSpec random = toySpec(sizes, std::uint64_t(seed), false);
        randomQ.append(runToy(random, sizes.pbtPopulation).bestQ);
        const ExperimentSpec pbt = toySpec(sizes, std::uint64_t(seed), true);
        if (auto why = refusal(pbt)) {
            out.insert(QStringLiteral("note"), QStringLiteral("pbt not available (%1)").arg(*why));
            continue;
        }
        const ToyRun run = runToy(pbt, sizes.pbtPopulation);
        pbtQ.append(run.bestQ);
        exploits.append(qint64(run.outcome.exploits.size()));
        if (!run.outcome.stalled.isEmpty()) {
            out.insert(QStringLiteral("note"),
                       QStringLiteral("seed %1: %2").arg(seed).arg(run.outcome.stalled));
        }
        if (seed == 0) {
            out.insert(QStringLiteral("winner"), run.winner);
            out.insert(QStringLiteral("winner_q"), run.bestQ);
            out.insert(QStringLiteral("lineage"), lineageOf(run));
        }
    }
    out.insert(QStringLiteral("pbt"), pbtQ);
    out.insert(QStringLiteral("random"), randomQ);
    out.insert(QStringLiteral("exploits"), exploits);
    std::fprintf(stderr, "pbt toy: %d seeds done\n", sizes.pbtSeeds);
    return out;
}

}  // namespace tunedeck::bench
