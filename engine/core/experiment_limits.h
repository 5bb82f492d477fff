// New num_samples and max_concurrent_trials for a running experiment (the control API's
// set_limits; NNI's "update trial number / concurrency"): what a request may ask, and whether the
// experiment can take it. The run then behaves as if it had been started with the new values;
// the change is recorded (a `limits` event) and applied again on resume. Pure; thread-safe.
//
// The rules (engine/api/CONTROL_API.md, "set_limits"): both are whole numbers >= 1, at least one
// is given. num_samples may not go below the trials already created (refused, as NNI refuses a
// max trial number below the trials it has run: a created trial is never taken back), nor change
// at all for `num_samples: -1` (it samples until time_budget_s), and it must still pass the
// searcher's own checks (a multiple of search.repeat, grid search's largest count). Lowering
// max_concurrent_trials stops no running trial: new ones wait until fewer than the new limit run.
#pragma once

#include <QJsonObject>
#include <memory>
#include <optional>

#include "core/experiment_spec.h"
#include "core/searcher.h"
#include "core/status.h"

namespace tunedeck {

struct LimitsChange {
    std::optional<int> numSamples;
    std::optional<int> maxConcurrentTrials;
};

// Reads `num_samples` and `max_concurrent_trials` of a request (or of a recorded `limits`
// event); the message names the field and what it must be.
Status parseLimitsChange(const QJsonObject& fields, LimitsChange* out);

// `spec` with the change applied, when the experiment can take it with `created` trials made so
// far; otherwise why not, naming the field.
Status applyLimitsChange(const LimitsChange& change, std::int64_t created, ExperimentSpec* spec);

// The searcher of `changed` (a new num_samples) that carries on from `current`: built from
// `changed` and given current's state, as resume builds one from the stored state. Null, with
// why, when it cannot take that state.
std::unique_ptr<Searcher> searcherForLimits(const Searcher& current, const ExperimentSpec& changed,
                                            Status* why);

}  // namespace tunedeck
