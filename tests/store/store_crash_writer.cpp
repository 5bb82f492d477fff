// Test helper: writes results into an experiment history as fast as it can until it is killed.
// Prints "ready" once a first batch is committed. Resumes every trial where the file left it,
// so it can be run again on the same file after a kill.
//   store_crash_writer <experiment.sqlite>
#include <QDateTime>
#include <cstdio>
#include <map>

#include "store/experiment_store.h"

using namespace tunedeck;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: store_crash_writer <experiment.sqlite>\n");
        return 2;
    }
    std::unique_ptr<ExperimentStore> store;
    if (Status status = ExperimentStore::open(QString::fromLocal8Bit(argv[1]),
                                              ExperimentStore::Mode::ReadWrite, &store);
        !status) {
        std::fprintf(stderr, "%s\n", qPrintable(status.message()));
        return 1;
    }
    constexpr int kTrials = 8;
    std::map<QString, std::int64_t> nextIteration;
    for (int i = 0; i < kTrials; ++i) {
        nextIteration[trialIdForIndex(i)] = 1;
    }
    for (const ResultRecord& row : store->loadResults()) {
        nextIteration[row.trialId] = std::max(nextIteration[row.trialId], row.iteration + 1);
    }
    for (int i = 0; i < kTrials; ++i) {
        TrialRecord record;
        record.trial.id = trialIdForIndex(i);
        record.trial.index = i;
        record.trial.status = TrialStatus::Running;
        store->saveTrial(record);
    }

    const QString padding(200, QLatin1Char('x'));  // rows of a realistic size
    for (std::int64_t count = 0;; ++count) {
        for (auto& [trialId, iteration] : nextIteration) {
            const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
            store->appendResult(trialId, iteration, now,
                                {{"loss", 1.0 / double(iteration)},
                                 {"training_iteration", qint64(iteration)},
                                 {"padding", padding}});
            if (iteration % 100 == 0) {
                store->appendEvent("checkpoint", trialId, {{"iteration", qint64(iteration)}}, now);
            }
            ++iteration;
        }
        if (count == 1000) {
            if (Status status = store->flush(); !status) {
                std::fprintf(stderr, "%s\n", qPrintable(status.message()));
                return 1;
            }
            std::printf("ready\n");
            std::fflush(stdout);
        }
    }
}
