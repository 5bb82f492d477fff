// What every section of the search benchmark shares: the experiment spec a user would write for
// one run (space, metric, mode, seed, algorithm), the check of whether an algorithm is in the
// catalogue yet, and the JSON shape of the figures both sides write. Pure; thread-safe.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"

namespace tunedeck::bench {

ExperimentSpec benchSpec(const SearchSpace& space, const QString& metric, MetricMode mode,
                         std::uint64_t seed, const QString& searcher, int numSamples);

// Why `spec` cannot run (the catalogue refuses its searcher or scheduler, e.g. not registered
// yet), or nullopt when it can.
std::optional<QString> refusal(const ExperimentSpec& spec);

// The labels of the table's rows, one per library and algorithm ("tunedeck tpe").
QString tunedeckLabel(const QString& algorithm);

QJsonArray toJson(const std::vector<double>& values);
std::vector<double> numbersOf(const QJsonValue& array);

// Sizes of one benchmark run; --quick shrinks them to a smoke run.
struct BenchSizes {
    int qualitySeeds = 20;
    std::vector<int> qualityAt{50, 200};  // evaluations after which the best value is read
    QStringList qualityProblems;          // problem names; empty: all
    // A row (one sampler on one problem) starts no new seed past this; a sampler whose cost
    // grows fast with the history then reports fewer seeds instead of holding the run for hours.
    double qualityRowBudgetSeconds = 600;
    int stoppingSeeds = 5;
    int stoppingFifoTrials = 64;  // random+FIFO's trials; every run gets their epoch budget
    int stoppingWorkers = 4;
    int stoppingMaxEpochs = 27;             // the resource's max_t: rungs 1, 3, 9, 27 at factor 3
    double stoppingRowBudgetSeconds = 600;  // as qualityRowBudgetSeconds
    int overheadRepeats = 20;
    std::vector<int> overheadHistory{100, 1000, 10000};
    int pbtSeeds = 10;
    int pbtPopulation = 4;
    int pbtSteps = 100;
    static BenchSizes quick();
};

}  // namespace tunedeck::bench
