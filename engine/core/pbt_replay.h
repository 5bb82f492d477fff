// Replaying a PBT winner (`tunedeck-engine pbt-replay`): the config schedule its weights lived
// through, computed from the recorded exploits, and the `pbt_replay` scheduler that makes one
// trial follow such a schedule. Pure functions and a strategy object; the scheduler is not
// thread-safe (the runtime's event loop only), the functions are.
//
// Anchor: Ray Tune's PopulationBasedTrainingReplay (python/ray/tune/schedulers/pbt.py), which
// replays the config changes logged for one trial. Where we differ:
//  - Ray's log lists, per exploit, the source's config and the step at which the trial went
//    on; Tunedeck records (trial, the iteration s it went on from) <- (source, source's
//    iteration j). s is the trial's own iteration, or j when the source was further on (the
//    trial is carried on to it, as Ray's is; histories from before that have s below j). The
//    weights of T at s are those of S at j, so T's lineage is S's lineage up to j, then T's new
//    config from replay step j, and every later step of T is shifted by (j - s). The schedule
//    below is computed that way, back through any number of ancestors, including trials that
//    exploited several times.
//  - Of a trial's exploits, only those recorded before the one that copied it count for the
//    copy (exploit ids are chronological), so a checkpoint copied from a trial that exploited
//    later is read as it was when copied; a self-exploit (the source is the trial) is a config
//    change that keeps the weights.
//  - A change is applied at the first result at or past its step (Ray: the same), as a
//    self-exploit: the runtime saves a checkpoint, ends the attempt, changes the config and
//    resumes from that checkpoint, so the trial's curve goes on without a jump.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/experiment_spec.h"
#include "core/scheduler.h"
#include "core/status.h"

namespace tunedeck {

// One exploit as the history recorded it (the store's ExploitRecord adds why and when):
// `trialId` at its own iteration `iteration` went on from `sourceTrialId`'s checkpoint at
// `sourceIteration`, with `newConfig` instead of `oldConfig`. `id` orders exploits in time.
struct RecordedExploit {
    std::int64_t id = 0;
    QString trialId;
    QString sourceTrialId;
    std::int64_t iteration = 0;
    std::int64_t sourceIteration = 0;
    QJsonObject oldConfig;
    QJsonObject newConfig;
};

// One PBT exploit as stored (who copied whom, at which iterations, old and
// new config; `iteration` is the trial's own count, kept across an exploit; a trial that only
// changed its config, under pbt-replay, has itself as the source), with why and when.
struct ExploitRecord : RecordedExploit {
    QString reason;
    double timestamp = 0;
};

// From the end of replay step `step` on, the trial trains with `config`.
struct ReplayChange {
    std::int64_t step = 0;
    QJsonObject config;
};

// Replay steps (fromStep, toStep] were trained by `trialId` (its own weights, whatever config).
struct ReplaySegment {
    QString trialId;
    std::int64_t fromStep = 0;
    std::int64_t toStep = 0;
};

struct PbtReplaySchedule {
    QJsonObject initialConfig;          // the root ancestor's config at step 0
    std::vector<ReplayChange> changes;  // steps increasing, each in [1, totalSteps)
    std::int64_t totalSteps = 0;        // the winner's last iteration, shifted as its lineage
    // Root first. A trial copied at its last result and never trained after shows no segment.
    std::vector<ReplaySegment> lineage;
};

// The schedule of `trialId`'s weights up to its own iteration `lastIteration`. `configs` holds
// every trial's config as stored (its latest); a trial's initial config is the old config of
// its first exploit, or its stored config when it never exploited. Changes that would not
// change the config are left out. NotFound when `trialId`, or a trial its lineage copied from,
// is not in `configs`; InvalidArgument when lastIteration or a recorded iteration is negative.
Status computePbtReplaySchedule(const QString& trialId, std::int64_t lastIteration,
                                const std::vector<RecordedExploit>& exploits,
                                const QMap<QString, QJsonObject>& configs, PbtReplaySchedule* out);

// The schedule as the `pbt_replay` scheduler's `schedule` option: [{step, config}, ...].
QJsonArray pbtReplayScheduleOption(const std::vector<ReplayChange>& changes);

// The `scheduler:` option keys pbt_replay takes: `schedule`, `time_attr` (the step counter,
// default training_iteration), and `metric` / `mode`, accepted unused so that a replay of a
// multi-objective experiment names its metric as the PBT run it replays had to.
QStringList pbtReplayOptionNames();
// On failure *badKey is "scheduler.<option>".
Status validatePbtReplayOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validatePbtReplayOptions.
std::unique_ptr<Scheduler> makePbtReplayScheduler(const ExperimentSpec& spec);

class PbtReplayScheduler final : public Scheduler {
  public:
    PbtReplayScheduler(QString timeAttr, std::vector<ReplayChange> changes);

    SchedulerDecision onResult(const Trial& trial, const QJsonObject& result) override;
    std::vector<std::pair<QString, QString>> requiredResultKeys() const override;
    QJsonObject saveState() const override;
    Status restoreState(const QJsonObject& state) override;

  private:
    QString timeAttr_;
    std::vector<ReplayChange> changes_;
    QMap<QString, int> next_;  // trial id -> index of its next change
};

}  // namespace tunedeck
