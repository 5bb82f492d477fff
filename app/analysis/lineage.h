// PBT lineage from the experiment's exploit events: whose weights a trial carries, as the chain
// of copies back to a trial that started from scratch. A trial's weights at an exploit are
// those it had after its own exploits before that one (events are in order), so the chain
// follows the event order, not iteration numbers, which restart when a trial copies another.
// Pure. Thread-safety: plain values, no shared state.
#pragma once

#include <QJsonObject>
#include <QStringList>
#include <map>
#include <vector>

#include "core/config_json.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

struct LineageStep {
    QString trial;   // the trial that copied
    QString source;  // the trial it copied
    qint64 iteration = 0;
    qint64 sourceIteration = 0;
    QStringList changes;  // "key: old → new", one per hyperparameter the exploit changed
    QString reason;
};

class Lineage {
  public:
    explicit Lineage(const std::vector<Exploit>& exploits);

    // The trials that copied another at least once, in order of their first exploit.
    const QStringList& exploitedTrials() const { return exploited_; }
    // The copies behind a trial's current weights, latest first; empty when it never copied.
    std::vector<LineageStep> stepsOf(const QString& trialId) const;
    // The trial, the one it copied, the one that one had copied before, ... to the first that
    // started from scratch: {"t3", "t1", "t0"}.
    QStringList chainOf(const QString& trialId) const;

    // The config a trial had before its first exploit; empty when it never copied.
    QJsonObject configBeforeFirstExploit(const QString& trialId) const;
    // Which numbers of that config are floats (the exploit event's old_config_floats).
    FloatPaths configFloatsBeforeFirstExploit(const QString& trialId) const;

    // "key: old → new" for each flattened key that differs, each value as the table shows it
    // (models/config_text.h), with the floats of either config.
    static QStringList configChanges(const QJsonObject& before, const QJsonObject& after,
                                     const FloatPaths& beforeFloats = {},
                                     const FloatPaths& afterFloats = {});

  private:
    // The last exploit of `trialId` before event `limit`, or -1.
    int lastBefore(const QString& trialId, int limit) const;

    const std::vector<Exploit>* exploits_;
    std::map<QString, std::vector<int>> byTrial_;  // exploit indices per trial, ascending
    QStringList exploited_;
};

}  // namespace tunedeck::app
