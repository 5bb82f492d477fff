#include "quality.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/searcher.h"
#include "core/trial.h"
#include "objectives.h"

namespace tunedeck::bench {

namespace {

const QString kLoss = QStringLiteral("loss");

struct SeedRun {
    std::vector<double> bestAt;  // one per sizes.qualityAt
    double tunerSeconds = 0;     // in suggest/onResult/onComplete
    double evalSeconds = 0;
    int evaluations = 0;
    QString note;
};

SeedRun runOne(const Problem& problem, const ExperimentSpec& spec, const BenchSizes& sizes) {
    SeedRun run;
    const auto searcher = makeSearcher(spec);
    double best = std::numeric_limits<double>::infinity();
    QElapsedTimer clock;
    for (int i = 0; i < spec.numSamples; ++i) {
        const QString id = trialIdForIndex(i);
        clock.start();
        Suggestion suggestion = searcher->suggest(id);
        run.tunerSeconds += double(clock.nsecsElapsed()) * 1e-9;
        if (suggestion.kind != Suggestion::Kind::Config) {
            // A sequential run never has a trial in flight here; a Wait would hang a user's run.
            run.note = suggestion.kind == Suggestion::Kind::Wait
                           ? QStringLiteral("waited with nothing running at %1").arg(i)
                           : QStringLiteral("finished after %1").arg(i);
            break;
        }
        clock.start();
        const Evaluation evaluation = evaluate(problem, suggestion.config);
        run.evalSeconds += double(clock.nsecsElapsed()) * 1e-9;
        ++run.evaluations;
        if (!evaluation.error.isEmpty()) {
            run.note = evaluation.error;
            break;
        }
        clock.start();
        if (std::isfinite(evaluation.value)) {
            const QJsonObject result{{kLoss, evaluation.value},
                                     {QStringLiteral("training_iteration"), 1}};
            searcher->onResult(id, result);
            searcher->onComplete(id, result, false);
            best = std::min(best, evaluation.value);
        } else {
            searcher->onComplete(id, {}, true);  // the trial failed (Optuna: FAIL)
        }
        run.tunerSeconds += double(clock.nsecsElapsed()) * 1e-9;
        for (size_t k = 0; k < sizes.qualityAt.size(); ++k) {
            if (i + 1 == sizes.qualityAt[k]) {
                run.bestAt.push_back(best);
            }
        }
    }
    return run;
}

}  // namespace

QStringList qualitySearchers() {
    return {QStringLiteral("tpe"), QStringLiteral("bayesopt"), QStringLiteral("cmaes"),
            QStringLiteral("random")};
}

QJsonObject runQuality(const BenchSizes& sizes) {
    QJsonObject out;
    QJsonObject evalMs;
    const int evaluations = sizes.qualityAt.back();
    for (const Problem& problem : problems()) {
        if (!sizes.qualityProblems.isEmpty() && !sizes.qualityProblems.contains(problem.name)) {
            continue;
        }
        QJsonArray rows;
        double evalSeconds = 0;
        int evalCount = 0;
        for (const QString& algorithm : qualitySearchers()) {
            QJsonObject row{{QStringLiteral("label"), tunedeckLabel(algorithm)}};
            std::vector<std::vector<double>> bestAt(sizes.qualityAt.size());
            double tunerSeconds = 0;
            QElapsedTimer wall;
            wall.start();
            for (int seed = 0; seed < sizes.qualitySeeds; ++seed) {
                const ExperimentSpec spec =
                    benchSpec(searchSpaceOf(problem), kLoss, MetricMode::Min, std::uint64_t(seed),
                              algorithm, evaluations);
                if (auto why = refusal(spec)) {
                    row.insert(QStringLiteral("note"),
                               QStringLiteral("not available (%1)").arg(*why));
                    break;
                }
                const SeedRun run = runOne(problem, spec, sizes);
                tunerSeconds += run.tunerSeconds;
                evalSeconds += run.evalSeconds;
                evalCount += run.evaluations;
                if (!run.note.isEmpty()) {
                    row.insert(QStringLiteral("note"), run.note);
                }
                for (size_t k = 0; k < run.bestAt.size(); ++k) {
                    bestAt[k].push_back(run.bestAt[k]);
                }
                if (seed + 1 < sizes.qualitySeeds &&
                    double(wall.elapsed()) / 1000.0 > sizes.qualityRowBudgetSeconds) {
                    row.insert(
                        QStringLiteral("note"),
                        QStringLiteral("%1 of %2 seeds: the row's time budget (%3 s) ran out")
                            .arg(seed + 1)
                            .arg(sizes.qualitySeeds)
                            .arg(sizes.qualityRowBudgetSeconds));
                    break;
                }
            }
            QJsonObject at;
            for (size_t k = 0; k < sizes.qualityAt.size(); ++k) {
                at.insert(QString::number(sizes.qualityAt[k]), toJson(bestAt[k]));
            }
            row.insert(QStringLiteral("best_at"), at);
            row.insert(QStringLiteral("seconds"), double(wall.elapsed()) / 1000.0);
            row.insert(QStringLiteral("tuner_seconds"), tunerSeconds);
            rows.append(row);
            std::fprintf(stderr, "quality %s %s: %.1f s%s\n", qPrintable(problem.name),
                         qPrintable(algorithm), double(wall.elapsed()) / 1000.0,
                         row.contains(QStringLiteral("note")) ? " (see note)" : "");
        }
        out.insert(problem.name, rows);
        if (evalCount > 0) {
            evalMs.insert(problem.name, evalSeconds * 1000.0 / evalCount);
        }
    }
    out.insert(QStringLiteral("eval_ms"), evalMs);
    return out;
}

}  // namespace tunedeck::bench
