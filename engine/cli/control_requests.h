// The arguments of the control requests `serve` answers (api/control_server.h carries them),
// read and checked before the supervisor acts on them: which experiment a `validate` or `start`
// names, and the numbers, trial ids and formats of `subscribe`, `trial_log`, `best` and
// `export`. A bad argument comes back as the text of a bad_request answer. Pure functions over
// the request (loading an experiment reads its files); reentrant: `validate` loads on a pool
// thread.
#pragma once

#include <QJsonValue>
#include <QString>
#include <cstdint>
#include <optional>

#include "api/control_protocol.h"
#include "config/problem_list.h"
#include "core/experiment_spec.h"

namespace tunedeck::cli {

// The experiment a request names: its `path` on the server's disk, or its text as `yaml`, with
// `file_name` saying where its relative paths start from (default: the results root). Neither
// given is an error of the load.
LoadResult<ExperimentSpec> loadRequestedExperiment(const api::Request& request,
                                                   const QString& resultsRoot);

// A count or position a client sends: JSON numbers are doubles, and one past 2^53 (1e300) is
// no whole number a file offset or sequence can hold; converting it to an integer would wrap.
bool isWholeNumberArgument(const QJsonValue& value);

// `subscribe`'s "since": 0 when absent; nothing (with `error` set) when not a whole number.
std::optional<std::int64_t> sinceArgument(const api::Request& request, QString* error);

// `trial_log`'s "trial" (an id like t00003) and "offset" (0 when absent).
struct TrialLogRequest {
    QString trial;
    qint64 offset = 0;
};
std::optional<TrialLogRequest> trialLogArgument(const api::Request& request, QString* error);

// The "format" of `best` (yaml, json, flags; yaml when absent) or `export` (csv, json; csv).
std::optional<QString> reportFormatArgument(const api::Request& request, QString* error);

// Where `start` and `resume` put an experiment in serve's fair queue: its "priority" (a whole
// number from -1000 to 1000, higher first; 0 when absent) and "user" (letters, digits, `.`,
// `_`, `@` and `-`, at most 64; `peer` when absent). Whose the user may be is the server's call
// (core/experiment_access.h): it queues the experiment as its owner whatever this says.
struct QueuePlace {
    QString user;
    int priority = 0;
};
std::optional<QueuePlace> queuePlaceArgument(const api::Request& request, const QString& peer,
                                             QString* error);

// The "scope" of `best` (core/best_trial.h's names; the engine's default when absent).
std::optional<QString> bestScopeArgument(const api::Request& request, QString* error);

}  // namespace tunedeck::cli
