// A finished experiment history written through the engine's own store, for the benchmarks that
// read one (bench_history: the command line's show and export; bench_app_stream: the window).
// Each trial is saved, holding its last result, before its results (they name it); every result
// carries the automatic fields a run records. Header-only; link tunedeck_store.
#pragma once

#include <QDir>
#include <QJsonObject>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "store/experiment_store.h"

namespace tunedeck::bench {

struct HistoryShape {
    QString specText;
    std::function<QJsonObject(int trial)> config;
    FloatPaths configFloats;
    // A result's metrics; the automatic fields (training_iteration, timestamp, ...) are added.
    std::function<QJsonObject(int trial, int iteration)> metrics;
    // Each trial's RUNNING and TERMINATED events, as a run records them.
    bool statusEvents = false;
};

// `trials` trials of `iterations` results each in FOLDER/experiment.sqlite.
inline bool writeHistory(const QString& folder, int trials, int iterations,
                         const HistoryShape& shape) {
    QDir().mkpath(folder);
    std::unique_ptr<ExperimentStore> store;
    if (!ExperimentStore::open(folder + "/experiment.sqlite", ExperimentStore::Mode::ReadWrite,
                               &store)) {
        return false;
    }
    ExperimentRecord record;
    record.name = QStringLiteral("history");
    record.specText = shape.specText;
    record.status = QStringLiteral("finished");
    record.createdAt = 1.7e9;
    store->saveExperiment(record);
    for (int t = 0; t < trials; ++t) {
        TrialRecord trial;
        trial.trial.id = QStringLiteral("t%1").arg(t, 5, 10, QLatin1Char('0'));
        trial.trial.index = t;
        trial.trial.config = shape.config(t);
        trial.configFloats = shape.configFloats;
        trial.trial.status = TrialStatus::Terminated;
        trial.trial.iteration = iterations;
        trial.trial.nodeId = QStringLiteral("local");
        const double begin = record.createdAt + t * 0.01;
        trial.startedAt = begin;
        std::vector<QJsonObject> results;
        for (int it = 1; it <= iterations; ++it) {
            QJsonObject result = shape.metrics(t, it);
            result.insert("training_iteration", it);
            result.insert("trial_id", trial.trial.id);
            result.insert("timestamp", begin + it * 0.001);
            result.insert("time_this_iter_s", 0.001);
            result.insert("time_total_s", it * 0.001);
            result.insert("iterations_since_restore", it);
            results.push_back(result);
        }
        trial.trial.lastResult = results.empty() ? QJsonObject{} : results.back();
        trial.trial.timeTotalS = iterations * 0.001;
        trial.finishedAt = begin + iterations * 0.001;
        store->saveTrial(trial);
        for (int it = 1; it <= iterations; ++it) {
            store->appendResult(trial.trial.id, it, begin + it * 0.001,
                                results[std::size_t(it - 1)]);
        }
        if (!shape.statusEvents) {
            continue;
        }
        store->appendEvent(QStringLiteral("trial_status"), trial.trial.id,
                           {{"failures", 0},
                            {"iteration", 0},
                            {"node", "local"},
                            {"status", "RUNNING"},
                            {"trial", trial.trial.id}},
                           begin);
        store->appendEvent(QStringLiteral("trial_status"), trial.trial.id,
                           {{"failures", 0},
                            {"iteration", iterations},
                            {"node", "local"},
                            {"reason", "finished"},
                            {"status", "TERMINATED"},
                            {"trial", trial.trial.id}},
                           trial.finishedAt);
    }
    return bool(store->flush());
}

}  // namespace tunedeck::bench
