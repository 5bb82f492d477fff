#include "models/trial_outcome.h"

namespace tunedeck::app {

TrialOutcome outcomeOf(const TrialRow& row) {
    if (row.status == QLatin1String("RUNNING")) {
        return TrialOutcome::Running;
    }
    if (row.status == QLatin1String("PAUSED")) {
        return TrialOutcome::Paused;
    }
    if (row.status == QLatin1String("ERROR")) {
        return TrialOutcome::Error;
    }
    if (row.status != QLatin1String("TERMINATED")) {
        return TrialOutcome::Pending;
    }
    if (stoppedByUser(row.reason)) {
        return TrialOutcome::StoppedByUser;
    }
    return earlyStopOf(row) ? TrialOutcome::StoppedEarly : TrialOutcome::Done;
}

OutcomeCounts outcomeCounts(const std::vector<TrialRow>& rows) {
    OutcomeCounts c;
    for (const TrialRow& row : rows) {
        switch (outcomeOf(row)) {
            case TrialOutcome::Pending:
                ++c.pending;
                break;
            case TrialOutcome::Running:
                ++c.running;
                break;
            case TrialOutcome::Paused:
                ++c.paused;
                break;
            case TrialOutcome::Done:
                ++c.done;
                break;
            case TrialOutcome::StoppedEarly:
                ++c.stoppedEarly;
                break;
            case TrialOutcome::StoppedByUser:
                ++c.stoppedByUser;
                break;
            case TrialOutcome::Error:
                ++c.error;
                break;
        }
    }
    return c;
}

}  // namespace tunedeck::app
