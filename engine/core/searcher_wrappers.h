// Searchers around searchers, for any `search.algorithm` (Ray Tune's ConcurrencyLimiter and
// Repeater): `max_concurrent: N` proposes nothing while N of its configs are unfinished, so a
// model waits for results instead of guessing; `repeat: N` evaluates each config N times (the
// trials get `__trial_index__` 0..N-1 in their config, to seed themselves differently) and tells
// the inner searcher the mean of the N final results once all have finished. Pure; not
// thread-safe (the runtime's event loop).
#pragma once

#include <memory>

#include "core/searcher.h"

namespace tunedeck {

inline const QString kTrialIndexKey = QStringLiteral("__trial_index__");

std::unique_ptr<Searcher> limitConcurrency(std::unique_ptr<Searcher> inner, int maxConcurrent);

// num_samples: -1 (Ray's "until time_budget_s"): `inner` as it is, with no total to show.
std::unique_ptr<Searcher> withoutEnd(std::unique_ptr<Searcher> inner);

// `metrics`: the result keys averaged over a group (the experiment's objectives).
std::unique_ptr<Searcher> repeatEach(std::unique_ptr<Searcher> inner, int repeat,
                                     QStringList metrics);

}  // namespace tunedeck
