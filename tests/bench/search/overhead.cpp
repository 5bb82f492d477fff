#include "overhead.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <algorithm>
#include <cstdio>

#include "core/rng.h"
#include "core/searcher.h"
#include "core/trial.h"
#include "median.h"
#include "objectives.h"
#include "quality.h"

namespace tunedeck::bench {

namespace {

// One size is skipped when the previous one, grown quadratically, says it would take longer
// than this per suggestion (a GP is cubic in the history: quadratic is the kind estimate).
constexpr double kSkipAboveSeconds = 300;
// Timed suggestions stop early once one size has taken this long (at least one is timed).
constexpr double kSizeBudgetSeconds = 60;
constexpr std::uint64_t kHistorySeed = 99;

const QString kLoss = QStringLiteral("loss");

double hartmannOf(const QJsonObject& config) {
    double x[6];
    for (int i = 0; i < 6; ++i) {
        x[i] = config.value(QStringLiteral("x%1").arg(i)).toDouble();
    }
    return hartmann6(x);
}

QJsonObject resultOf(const QJsonObject& config) {
    return {{kLoss, hartmannOf(config)}, {QStringLiteral("training_iteration"), 1}};
}

// {"median_ms", "samples", "fill_s"} after `history` completed trials, or {"skipped": why}.
QJsonObject timeAfter(const QString& algorithm, int history, int repeats) {
    const Problem& problem = *findProblem(QStringLiteral("hartmann6"));
    const SearchSpace space = searchSpaceOf(problem);
    QJsonArray points;
    for (int i = 0; i < history; ++i) {
        Rng rng = Rng::forStream(kHistorySeed, std::uint64_t(i));
        points.append(space.sample(rng));
    }
    ExperimentSpec spec =
        benchSpec(space, kLoss, MetricMode::Min, 1, algorithm, history + repeats + 1);
    spec.search.options.insert(QStringLiteral("points_to_evaluate"), points);
    if (auto why = refusal(spec)) {
        return {{QStringLiteral("skipped"), QStringLiteral("not available (%1)").arg(*why)}};
    }
    const auto searcher = makeSearcher(spec);
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < history; ++i) {
        const QString id = trialIdForIndex(i);
        const Suggestion s = searcher->suggest(id);
        if (s.kind != Suggestion::Kind::Config) {
            return {{QStringLiteral("skipped"),
                     QStringLiteral("no config for point %1 of points_to_evaluate").arg(i)}};
        }
        const QJsonObject result = resultOf(s.config);
        searcher->onResult(id, result);
        searcher->onComplete(id, result, false);
    }
    const double fillSeconds = double(clock.nsecsElapsed()) * 1e-9;
    std::vector<double> seconds;
    QElapsedTimer budget;
    budget.start();
    for (int r = 0; r < repeats; ++r) {
        const QString id = trialIdForIndex(history + r);
        clock.start();
        const Suggestion s = searcher->suggest(id);
        seconds.push_back(double(clock.nsecsElapsed()) * 1e-9);
        if (s.kind != Suggestion::Kind::Config) {
            break;
        }
        const QJsonObject result = resultOf(s.config);
        searcher->onResult(id, result);
        searcher->onComplete(id, result, false);
        if (double(budget.elapsed()) / 1000.0 > kSizeBudgetSeconds) {
            break;
        }
    }
    return {{QStringLiteral("median_ms"), median(seconds) * 1000.0},
            {QStringLiteral("samples"), int(seconds.size())},
            {QStringLiteral("fill_s"), fillSeconds}};
}

}  // namespace

QJsonArray runOverhead(const BenchSizes& sizes) {
    QJsonArray out;
    for (const QString& algorithm : qualitySearchers()) {
        QJsonObject row{{QStringLiteral("label"), tunedeckLabel(algorithm)}};
        double previousMs = 0;
        int previousSize = 0;
        for (int history : sizes.overheadHistory) {
            const double ratio = previousSize > 0 ? double(history) / previousSize : 0;
            const double estimate = previousMs / 1000.0 * ratio * ratio;
            QJsonObject cell;
            if (estimate > kSkipAboveSeconds) {
                cell = {{QStringLiteral("skipped"),
                         QStringLiteral("skipped: ~%1 s per suggestion expected")
                             .arg(estimate, 0, 'f', 0)}};
            } else {
                cell = timeAfter(algorithm, history, sizes.overheadRepeats);
            }
            previousMs = cell.value(QStringLiteral("median_ms")).toDouble(previousMs);
            previousSize = history;
            row.insert(QString::number(history), cell);
            std::fprintf(
                stderr, "overhead %s after %d: %s\n", qPrintable(algorithm), history,
                cell.contains(QStringLiteral("median_ms"))
                    ? qPrintable(QString::number(cell.value(QStringLiteral("median_ms")).toDouble(),
                                                 'g', 3) +
                                 QStringLiteral(" ms"))
                    : qPrintable(cell.value(QStringLiteral("skipped")).toString()));
        }
        out.append(row);
    }
    return out;
}

}  // namespace tunedeck::bench
