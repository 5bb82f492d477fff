// What a program that shows a stored experiment needs of its spec (the text the history keeps):
// its name, objectives and scheduler type, read without checking the trainable, so a folder
// copied off a server opens where the trainable does not exist. Used by the CLI's history
// commands and the desktop app. A pure function; thread-safe.
#pragma once

#include <QString>
#include <vector>

#include "core/experiment_spec.h"

namespace tunedeck {

struct SpecSummary {
    QString name;
    QString metric;  // the first objective's, as ExperimentSpec
    MetricMode mode = MetricMode::Max;
    std::vector<Objective> objectives;  // `metric: [a, b]` with `mode: [min, max]`: two
    QString schedulerType;              // "fifo" when not written
    bool isMultiObjective() const { return objectives.size() > 1; }
};

// A spec that does not parse (it was valid when it ran, so the text is damaged) gives an empty
// summary: no name, no objective, scheduler "fifo".
SpecSummary summarizeSpec(const QString& specText);

}  // namespace tunedeck
