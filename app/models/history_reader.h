// Opens a finished (or running) experiment straight from its experiment.sqlite, read-only, as
// DESIGN.md promises: copy a folder off a server and browse it. Much faster than replaying its
// events over the control API (no JSON document per result: the metric is picked out of each
// result's text by a scanner), so the window uses it for whatever is already recorded when the
// folder is readable here, and then subscribes from the last sequence number it read. Reads the
// history schema v2 (engine/store/schema.cpp). Thread-safety: readHistory() and ResultMetric
// touch nothing shared; run the read on a worker thread and hand the result to the GUI thread.
#pragma once

#include <QString>
#include <string>
#include <string_view>
#include <vector>

#include "models/experiment_data.h"

namespace tunedeck::app {

struct History {
    QString name;
    QString status;  // running, finished, interrupted, failed
    QString metric;  // the first objective
    bool minimize = false;
    double startTime = 0;
    std::vector<TrialRow> trials;
    std::vector<QJsonObject> exploits;  // as "exploit" event payloads
    qint64 lastSeq = 0;                 // subscribe from here for what comes later
    qint64 results = 0;
};

// Where the experiment's metric sits in a result, as ExperimentData finds it in a result event: a
// top-level key, or, when no key has that name, a path through nested objects ("val/loss").
// Reads the result's JSON text in place, without building a document: the whole read of a
// million results takes about a third of what SQLite's json_extract alone took (bench_app_stream).
class ResultMetric {
  public:
    explicit ResultMetric(const QString& metric);
    // The metric in one result's JSON text; kNoValue when it is absent or not a number.
    double in(std::string_view json) const;

  private:
    std::string key_;
    std::vector<std::string> path_;  // empty unless the metric has a '/'
    QString metric_;
};

// Reads <folder>/experiment.sqlite. On failure returns false with a message naming the file.
bool readHistory(const QString& folder, History* out, QString* error);

}  // namespace tunedeck::app
