// Which hyperparameters of an experiment are choices, read from its spec: a `choice` is a set of
// options whatever they hold, so batch_size: {choice: [16, 32, 64]} is three categories, not a
// number between 16 and 64, and the analysis views give it an axis of exactly those values (as
// Optuna's plots treat a CategoricalDistribution). The spec is read by engine/config
// (config/spec_choices.h), so the models do not walk core's search-space domains. Pure function;
// thread-safe.
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QString>

namespace tunedeck::app {

// Each choice parameter's options, by its dotted path as the trials' flattened configs name it
// (models/experiment_data.h), in the order written and without repeats. A choice with an option
// that is a group of parameters is left out (its trials' keys are the group's). Empty when the
// spec does not load on this machine (as budgetOfSpec); the views then place the values as they
// find them.
using SpecChoices = QHash<QString, QJsonArray>;
SpecChoices choicesOfSpec(const QString& specText, const QString& folder);

}  // namespace tunedeck::app
