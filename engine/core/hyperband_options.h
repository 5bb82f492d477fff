// hyperband's `scheduler:` options: the keys it takes, their types and ranges (*badKey as
// validateScheduler's). Pure functions; thread-safe.
// makeHyperbandScheduler and hyperbandBudgets (core/hyperband_scheduler.h) read the same options
// and live in hyperband_options.cpp with them.
#pragma once

#include <QString>
#include <QStringList>

#include "core/experiment_spec.h"
#include "core/status.h"

namespace tunedeck {

// A reduction factor this close to 1 makes bands of more brackets than any budget can fill;
// it is a typo, and past it the bracket arithmetic leaves the range of exact integers.
inline constexpr int kHyperbandMaxBracketsPerBand = 100;

// The `scheduler:` option keys hyperband takes, for the catalogue's unknown-option check.
QStringList hyperbandOptionNames();
// Option types and ranges; on failure *badKey is "scheduler.<option>".
Status validateHyperbandOptions(const ExperimentSpec& spec, QString* badKey);

}  // namespace tunedeck
