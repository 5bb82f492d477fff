// The choice parameters of a stored experiment spec and their options, for programs that show
// its trials (the desktop app's axes): a `choice` is a set of options whatever they hold, so
// batch_size: {choice: [16, 32, 64]} is three categories, not a number between 16 and 64. Read
// with the experiment loader, so the app's models need not walk core's search-space domains.
// A pure function; thread-safe.
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QString>

namespace tunedeck {

// Each choice parameter's options by its dotted path as the trials' flattened configs name it,
// in the order written and without repeats. A choice with an option that is a group of
// parameters is left out (its trials' keys are the group's). Empty when `specText` does not load
// as if it were the file `sourceFile`.
QHash<QString, QJsonArray> choiceParametersOfSpec(const QString& specText,
                                                  const QString& sourceFile);

}  // namespace tunedeck
