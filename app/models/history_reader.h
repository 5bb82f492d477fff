// Opens a finished (or running) experiment straight from its experiment.sqlite, read-only, as
// DESIGN.md promises: copy a folder off a server and browse it. Much faster than replaying its
// events over the control API, so the window uses it for whatever is already recorded when the
// folder is readable here, and then subscribes from the last sequence number it read. The
// reading itself is the store's (store/history_reader.h, which checks the schema version the
// store writes); this turns it into the app's rows. Thread-safety: readHistory() touches
// nothing shared; run it on a worker thread and hand the result to the GUI thread.
#pragma once

#include <QString>
#include <vector>

#include "models/experiment_budget.h"
#include "models/experiment_data.h"
#include "models/spec_choices.h"
#include "store/result_metric.h"

namespace tunedeck::app {

struct History {
    QString name;
    QString status;  // running, finished, interrupted, failed
    QString metric;  // the first objective
    bool minimize = false;
    std::vector<Objective> objectives;  // every objective; with several, each row's curves
    double startTime = 0;
    std::vector<TrialRow> trials;
    std::vector<Exploit> exploits;
    qint64 lastSeq = 0;  // subscribe from here for what comes later
    qint64 results = 0;
    QString spec;             // the experiment file as recorded
    QString folder;           // read from here: what tells two runs of one name apart
    ExperimentBudget budget;  // what the progress bar counts (models/experiment_budget.h)
    SpecChoices choices;      // its choice parameters (models/spec_choices.h)
};

// Where the experiment's metric sits in a result's stored text, read as ExperimentData reads a
// result event (both follow store/result_metric.h).
using store::ResultMetric;

// Reads <folder>/experiment.sqlite. On failure returns false with a message naming the file.
// The rows' curves are of `curveMetric`, or of the objective when it is empty (the metric
// picker's curves); History::metric is the objective either way.
bool readHistory(const QString& folder, History* out, QString* error,
                 const QString& curveMetric = {});

// The experiment file as it ran and where it was (Clone experiment), from
// <folder>/experiment.sqlite whatever the window shows. On failure returns false with the
// store's message.
struct RecordedSpec {
    QString name;
    QString specText;
    QString specFile;
};
bool readRecordedSpec(const QString& folder, RecordedSpec* out, QString* error);

}  // namespace tunedeck::app
