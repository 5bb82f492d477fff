// Quality section: each Tunedeck searcher drives its own sequential optimisation of every
// problem (suggest, evaluate, onResult, onComplete), and the best value after 50 and 200
// evaluations is kept per seed. Single-threaded.
#pragma once

#include <QJsonObject>
#include <QStringList>

#include "bench_spec.h"

namespace tunedeck::bench {

// The searchers the table compares, in its row order.
QStringList qualitySearchers();

// {"<problem>": [{"label", "best_at": {"50": [per seed], ...}, "seconds", "tuner_seconds",
//   "note"}], "eval_ms": {"<problem>": ms}}. Progress goes to stderr.
QJsonObject runQuality(const BenchSizes& sizes);

}  // namespace tunedeck::bench
