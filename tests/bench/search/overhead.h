// Overhead section: the time one suggestion takes once a searcher has seen 100, 1,000 and 10,000
// completed trials. The history is fed through the public API (random configs given as
// points_to_evaluate, each completed with its Hartmann-6 value), then suggestions are timed one
// by one, each completed before the next. Single-threaded; wall-clock timings.
#pragma once

#include <QJsonArray>

#include "bench_spec.h"

namespace tunedeck::bench {

// [{"label", "<history>": {"median_ms", "samples", "fill_s"} or {"skipped": "why"}}]
QJsonArray runOverhead(const BenchSizes& sizes);

}  // namespace tunedeck::bench
