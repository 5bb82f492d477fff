// A trial's report as the engine takes it (PROTOCOL.md, "report"): checked first (a metrics
// object; the experiment's metric present and finite; training_iteration a whole number), then
// completed with Ray Tune's automatic result fields. What is wrong is said with its cause: the
// trial's fault (it fails, and is retried per max_failures) or a mistake in the experiment (the
// metric or a key the scheduler needs is never reported: the run stops with exit 2, pointing at
// the key in the experiment file, as Ray raises). Pure.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <cstdint>
#include <optional>

#include "core/experiment_spec.h"
#include "core/scheduler.h"

namespace tunedeck {

struct ReportProblem {
    enum class Kind {
        TrialFault,         // the trial fails (FailureCause::ProtocolViolation)
        ExperimentMistake,  // the experiment stops with exit 2
    };
    Kind kind = Kind::TrialFault;
    QString message;
};

// Checks the `metrics` of a report of `trialId`, whose last iteration was `lastIteration`. On
// success, `iteration` is the report's training_iteration (the trial's own, or the next one).
std::optional<ReportProblem> checkReport(const QJsonValue& metrics, const ExperimentSpec& spec,
                                         const QString& trialId, std::int64_t lastIteration,
                                         std::int64_t* iteration);

// A key the scheduler needs (time_attr) that `result` lacks: a mistake in the experiment.
std::optional<ReportProblem> checkRequiredKeys(const Scheduler& scheduler,
                                               const ExperimentSpec& spec, const QString& trialId,
                                               const QJsonObject& result);

// What a recorded result decides: the experiment's own `stop:` criteria (and `done`) first, then
// the scheduler (Ray applies its stopper before the scheduler too).
SchedulerDecision decideOnResult(const StopCriteria& stop, Scheduler& scheduler, const Trial& trial,
                                 const QJsonObject& result);

// Ray Tune's automatic result fields, added to what the trial reported.
struct AutomaticFields {
    std::int64_t iteration = 0;
    QString trialId;
    double timestamp = 0;  // seconds since the epoch
    double timeThisIterS = 0;
    double timeTotalS = 0;
    std::int64_t iterationsSinceRestore = 0;
};
QJsonObject withAutomaticFields(QJsonObject metrics, const AutomaticFields& fields);
// The time_total_s withAutomaticFields wrote into a recorded result (0 when it has none): where a
// resumed trial's clock goes on from.
double recordedTimeTotalS(const QJsonObject& result);

}  // namespace tunedeck
