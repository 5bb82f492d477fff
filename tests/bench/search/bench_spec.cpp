#include "bench_spec.h"

#include "core/scheduler.h"
#include "core/searcher.h"

namespace tunedeck::bench {

ExperimentSpec benchSpec(const SearchSpace& space, const QString& metric, MetricMode mode,
                         std::uint64_t seed, const QString& searcher, int numSamples) {
    ExperimentSpec spec;
    spec.name = QStringLiteral("bench");
    spec.searchSpace = space;
    spec.metric = metric;
    spec.mode = mode;
    spec.objectives = {{metric, mode}};
    spec.seed = seed;
    spec.seedGiven = true;
    spec.numSamples = numSamples;
    spec.search.name = searcher;
    return spec;
}

std::optional<QString> refusal(const ExperimentSpec& spec) {
    QString badKey;
    if (Status s = validateSearcher(spec, &badKey); !s) {
        return QStringLiteral("%1: %2").arg(badKey, s.message());
    }
    if (Status s = validateScheduler(spec, &badKey); !s) {
        return QStringLiteral("%1: %2").arg(badKey, s.message());
    }
    return std::nullopt;
}

QString tunedeckLabel(const QString& algorithm) {
    return QStringLiteral("tunedeck ") + algorithm;
}

QJsonArray toJson(const std::vector<double>& values) {
    QJsonArray array;
    for (double v : values) {
        array.append(v);
    }
    return array;
}

std::vector<double> numbersOf(const QJsonValue& array) {
    std::vector<double> values;
    for (const QJsonValue& v : array.toArray()) {
        if (v.isDouble()) {
            values.push_back(v.toDouble());
        }
    }
    return values;
}

BenchSizes BenchSizes::quick() {
    BenchSizes sizes;
    sizes.qualitySeeds = 3;
    sizes.qualityAt = {10, 30};
    sizes.qualityRowBudgetSeconds = 60;
    sizes.stoppingSeeds = 2;
    sizes.stoppingFifoTrials = 12;
    sizes.stoppingWorkers = 4;
    sizes.stoppingMaxEpochs = 9;
    sizes.stoppingRowBudgetSeconds = 60;
    sizes.overheadRepeats = 5;
    sizes.overheadHistory = {100, 300};
    sizes.pbtSeeds = 3;
    sizes.pbtPopulation = 4;
    sizes.pbtSteps = 40;
    return sizes;
}

}  // namespace tunedeck::bench
