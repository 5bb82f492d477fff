// Readers for the sections of an experiment file (trainable, resources, stop, checkpoint,
// failure, search/scheduler) into ExperimentSpec fields. Each reports its problems through the
// YamlReader and leaves the field at its default when a value is wrong.
// Internal to engine/config; one set of readers per load, not shared between threads.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "config/file_place.h"
#include "config/yaml_reader.h"
#include "core/experiment_spec.h"

namespace tunedeck {

std::optional<MetricMode> readMode(YamlReader& reader, const YamlEntry& entry);

// YamlReader::rejectUnknown, except that a key Ray Tune users write (`param_space`,
// CheckpointConfig's `num_to_keep`, ...) is answered with the Tunedeck key that does the same.
// `section` is where the entries are: "" for the top level, else the section's name.
void rejectUnknownKeys(YamlReader& reader, const std::vector<YamlEntry>& entries,
                       const QStringList& known, const QString& section);

// trainable: command, working_dir, env. `commandValue` receives where the command was written.
void readTrainable(YamlReader& reader, const YamlEntry& entry, const FilePlace& place,
                   TrainableSpec* out, SourceLocation* commandValue, bool* workingDirOk);
void readResources(YamlReader& reader, const YamlEntry& entry, ResourceRequest* out,
                   GangSpec* gang);

// A `stop:` threshold as written; its direction may depend on metric and mode.
struct WrittenThreshold {
    QString metric;
    double value = 0;
    std::optional<bool> atLeast;  // set when written as {">=": x} or {"<=": x}
};
void readStop(YamlReader& reader, const YamlEntry& entry, StopCriteria* out,
              std::vector<WrittenThreshold>* thresholds);
// A plain number means ">=" (Ray Tune's stop), except for the experiment's own metric when it
// is minimized: `stop: {loss: 0.05}` with `mode: min` means "stop once loss <= 0.05".
void resolveStopDirections(const std::vector<WrittenThreshold>& thresholds,
                           const std::vector<Objective>& objectives, StopCriteria* out);

// checkpoint: frequency, at_end, keep, score, score_mode. `scoreModeGiven` tells whether the
// user chose score_mode (it otherwise follows the experiment's mode when score is the metric).
void readCheckpoint(YamlReader& reader, const YamlEntry& entry, CheckpointSpec* out,
                    bool* scoreGiven, bool* scoreModeGiven);
// failure: max_failures, fail_fast (true, false or Ray's raise), heartbeat_timeout_s,
// stop_grace_s.
void readFailure(YamlReader& reader, const YamlEntry& entry, FailureSpec* out);
// num_samples: a count from 1, or Ray's -1 (until time_budget_s is spent).
void readNumSamples(YamlReader& reader, const YamlEntry& entry, int* out);
// time_budget_s: seconds, above 0.
void readTimeBudget(YamlReader& reader, const YamlEntry& entry, std::optional<double>* out);

// search / scheduler: a name (or a mapping with `nameKey` and the algorithm's options).
void readAlgorithm(YamlReader& reader, const YamlEntry& entry, const QString& nameKey,
                   AlgorithmSpec* out);

}  // namespace tunedeck
