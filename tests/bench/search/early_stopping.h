// Early-stopping section: the digits MLP with epochs as the resource, run through the simulated
// runtime (trial_simulation.h) with N workers for each searcher+scheduler pair, every pair
// getting the epoch budget that random+FIFO spends on its trials. What is kept per seed is the
// run's trajectory: (epochs spent by all trials so far, best validation accuracy so far, fake
// time) at every improvement, from which the table reads when each run reached FIFO's best.
// Single-threaded.
#pragma once

#include <QJsonObject>

#include "bench_spec.h"

namespace tunedeck::bench {

// {"max_epochs", "workers", "fifo_trials", "budget", "rows": [{"label", "runs": [{"seed",
//  "trajectory": [[epochs, accuracy, fake time], ...], "epochs", "trials", "note"}], "note"}]}
QJsonObject runEarlyStopping(const BenchSizes& sizes);

}  // namespace tunedeck::bench
