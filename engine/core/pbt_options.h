// pbt's and pb2's `scheduler:` options: the keys pbt takes, their types and ranges, and
// hyperparam_mutations and [low, high] bounds checked against search_space (*badKey as
// validateScheduler's). Pure functions; thread-safe.
// makePbtScheduler and populationOptions (core/pbt_scheduler.h) read the same options and live
// in pbt_options.cpp with them.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/experiment_spec.h"
#include "core/pbt_explore.h"
#include "core/search_space.h"
#include "core/status.h"

namespace tunedeck {

// The `scheduler:` option keys pbt takes, for the catalogue's unknown-option check.
QStringList pbtOptionNames();
// Option types and ranges, hyperparam_mutations against search_space; on failure *badKey is
// "scheduler.<option>" (or "scheduler.hyperparam_mutations.<param>", or "metric").
Status validatePbtOptions(const ExperimentSpec& spec, QString* badKey);

// pbt's `explore_command` (Ray's custom_explore_fn, as a program the runtime runs at each exploit
// with the explored config as JSON on its standard input; what it prints is the config the trial
// goes on with): the program and its arguments; empty when the scheduler is not pbt (or
// resource_changing over pbt), the option is not set, or it is not a list of non-empty strings.
QStringList pbtExploreCommand(const ExperimentSpec& spec);

// PBT and PB2 copy checkpoints from trial to trial: an experiment whose checkpoints are turned
// off cannot use them (the catalogue checks `checkpoint` against this).
bool pbtNeedsCheckpoints();

// What pbt and pb2 check and read alike (the `name` is used in messages):
// time_attr/metric/mode, perturbation_interval > 0, quantile_fraction in (0, 0.5], the boolean
// options among `booleans`, `numbers` finite, and one objective.
Status validatePopulationOptions(const ExperimentSpec& spec, const QString& name,
                                 const QStringList& numbers, const QStringList& booleans,
                                 QString* badKey);

// The scheduler option `option` read as a mapping param -> [low, high] (nested mappings for
// groups), each param in search_space and low <= high; *badKey "scheduler.<option>.<param>".
Status parseParamBounds(const ExperimentSpec& spec, const QString& option,
                        std::vector<PbtBound>* out, QString* badKey);

// The parameter of `space` at a dotted path through groups, or null.
const Parameter* parameterAtPath(const SearchSpace& space, const QString& dottedPath);
// A copy of `config` with `value` at a dotted path (intermediate groups created as needed).
QJsonObject withValueAtPath(QJsonObject config, const QString& dottedPath, const QJsonValue& value);

}  // namespace tunedeck
