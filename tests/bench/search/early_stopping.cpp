#include "early_stopping.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <cstdio>

#include "core/scheduler.h"
#include "objectives.h"
#include "trial_simulation.h"

namespace tunedeck::bench {

namespace {

const QString kAccuracy = QStringLiteral("accuracy");
// Rungs 1, 3, 9, 27 (or 1, 3, 9): the same as Optuna's pruners are given.
constexpr int kReductionFactor = 3;

class MlpTrainable final : public SimTrainable {
  public:
    MlpTrainable(const DigitsData& data, const QJsonObject& config, int maxEpochs)
        : training_(data, mlpConfigFrom(config), kMlpSeed), maxEpochs_(maxEpochs) {}

    QJsonObject step() override {
        const double error = training_.trainEpoch();
        return {{kAccuracy, 1.0 - error}, {QStringLiteral("error"), error}};
    }
    bool finished() const override { return training_.epochsDone() >= maxEpochs_; }
    std::unique_ptr<SimTrainable> clone() const override {
        return std::make_unique<MlpTrainable>(*this);
    }

  private:
    MlpTraining training_;
    int maxEpochs_;
};

struct Pairing {
    QString searcher;
    QString scheduler;
    int workers = 0;  // 0: the section's worker count
};

std::vector<Pairing> pairings() {
    // BOHB is a searcher paired with HyperBand brackets (Ray's TuneBOHB + HyperBandForBOHB);
    // a scheduler of its own is used when the catalogue has one.
    const QString bohbScheduler = knownSchedulers().contains(QStringLiteral("bohb"))
                                      ? QStringLiteral("bohb")
                                      : QStringLiteral("hyperband");
    // ASHA with one worker is the like-for-like row for Optuna's sequential pruners.
    return {{QStringLiteral("random"), QStringLiteral("fifo")},
            {QStringLiteral("random"), QStringLiteral("asha")},
            {QStringLiteral("random"), QStringLiteral("asha"), 1},
            {QStringLiteral("tpe"), QStringLiteral("asha")},
            {QStringLiteral("random"), QStringLiteral("hyperband")},
            {QStringLiteral("bohb"), bohbScheduler}};
}

QJsonObject schedulerOptions(const QString& scheduler, int maxEpochs) {
    if (scheduler == QLatin1String("fifo")) {
        return {};
    }
    QJsonObject options{{QStringLiteral("time_attr"), QStringLiteral("training_iteration")},
                        {QStringLiteral("max_t"), maxEpochs},
                        {QStringLiteral("reduction_factor"), kReductionFactor}};
    if (scheduler == QLatin1String("asha")) {
        options.insert(QStringLiteral("grace_period"), 1);
    }
    return options;
}

}  // namespace

QJsonObject runEarlyStopping(const BenchSizes& sizes) {
    const Problem& problem = *findProblem(QStringLiteral("digits_mlp"));
    const int maxEpochs = sizes.stoppingMaxEpochs;
    const std::int64_t budget = std::int64_t(sizes.stoppingFifoTrials) * maxEpochs;
    QJsonObject out{{QStringLiteral("max_epochs"), maxEpochs},
                    {QStringLiteral("workers"), sizes.stoppingWorkers},
                    {QStringLiteral("fifo_trials"), sizes.stoppingFifoTrials},
                    {QStringLiteral("budget"), qint64(budget)}};
    QString dataError;
    const DigitsData* data = digitsData(&dataError);
    if (!data) {
        out.insert(QStringLiteral("note"), dataError);
        return out;
    }
    QJsonArray rows;
    for (const Pairing& pairing : pairings()) {
        const int workers = pairing.workers > 0 ? pairing.workers : sizes.stoppingWorkers;
        QString label =
            tunedeckLabel(QStringLiteral("%1+%2").arg(pairing.searcher, pairing.scheduler));
        if (pairing.workers > 0) {
            label += QStringLiteral(", %1 worker%2").arg(workers).arg(workers > 1 ? "s" : "");
        }
        QJsonObject row{{QStringLiteral("label"), label}};
        QJsonArray runs;
        QElapsedTimer wall;
        wall.start();
        for (int seed = 0; seed < sizes.stoppingSeeds; ++seed) {
            // FIFO runs its trials to the end; the others may start a trial per epoch of budget.
            const int samples =
                pairing.scheduler == QLatin1String("fifo") ? sizes.stoppingFifoTrials : int(budget);
            ExperimentSpec spec = benchSpec(searchSpaceOf(problem), kAccuracy, MetricMode::Max,
                                            std::uint64_t(seed), pairing.searcher, samples);
            spec.scheduler.name = pairing.scheduler;
            spec.scheduler.options = schedulerOptions(pairing.scheduler, maxEpochs);
            if (auto why = refusal(spec)) {
                row.insert(QStringLiteral("note"), QStringLiteral("not available (%1)").arg(*why));
                break;
            }
            TrialSimulation simulation(spec, workers, [data, maxEpochs](const QJsonObject& config) {
                return std::make_unique<MlpTrainable>(*data, config, maxEpochs);
            });
            QJsonArray trajectory;
            double best = -1;
            simulation.setObserver([&trajectory, &best, &simulation](const Trial&,
                                                                     const QJsonObject& result,
                                                                     std::int64_t total) {
                const double accuracy = result.value(kAccuracy).toDouble();
                if (accuracy > best) {
                    best = accuracy;
                    trajectory.append(QJsonArray{qint64(total), accuracy, simulation.now()});
                }
            });
            const SimOutcome outcome = simulation.run(budget);
            QJsonObject run{{QStringLiteral("seed"), seed},
                            {QStringLiteral("trajectory"), trajectory},
                            {QStringLiteral("epochs"), qint64(outcome.iterations)},
                            {QStringLiteral("trials"), qint64(outcome.trialsStarted)}};
            if (!outcome.stalled.isEmpty()) {
                run.insert(QStringLiteral("note"), outcome.stalled);
                row.insert(QStringLiteral("note"),
                           QStringLiteral("seed %1: %2").arg(seed).arg(outcome.stalled));
            }
            runs.append(run);
            if (seed + 1 < sizes.stoppingSeeds &&
                double(wall.elapsed()) / 1000.0 > sizes.stoppingRowBudgetSeconds) {
                row.insert(QStringLiteral("note"),
                           QStringLiteral("%1 of %2 seeds: the row's time budget (%3 s) ran out")
                               .arg(seed + 1)
                               .arg(sizes.stoppingSeeds)
                               .arg(sizes.stoppingRowBudgetSeconds));
                break;
            }
        }
        row.insert(QStringLiteral("runs"), runs);
        row.insert(QStringLiteral("seconds"), double(wall.elapsed()) / 1000.0);
        rows.append(row);
        std::fprintf(stderr, "early stopping %s: %.1f s%s\n", qPrintable(label),
                     double(wall.elapsed()) / 1000.0,
                     row.contains(QStringLiteral("note")) ? " (see note)" : "");
    }
    out.insert(QStringLiteral("rows"), rows);
    return out;
}

}  // namespace tunedeck::bench
