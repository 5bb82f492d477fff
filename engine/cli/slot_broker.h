// serve's fair queue: the experiments `serve` runs on this machine share its CPUs and GPUs by the
// policy of core/fair_share.h (priority, fair share among equal priorities, per-user quotas,
// backfill, no starvation). Each experiment runs as its own child process with --shared-slots:
// it says what it runs and wants (a demand line), and the broker answers how many trials it may
// run at once now (a share order), with the policy's reason when that holds trials back.
// Decisions are made again whenever a demand changes, an experiment comes or goes, and once a
// second (waiting time counts toward starvation). Nothing running is stopped to make room: a
// higher priority takes the next slot that frees (no preemption; engine/api/CONTROL_API.md).
// Thread-safety: main thread only, like the supervisor.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <functional>
#include <map>

#include "core/fair_share.h"
#include "runtime/experiment_runner.h"

namespace tunedeck::cli {

class SlotBroker : public QObject {
    Q_OBJECT
  public:
    // `machine`: the room shared (this machine's CPUs and GPUs, or what --capacity says).
    SlotBroker(NodeCapacity machine, SharePolicy policy, QObject* parent = nullptr);

    // An experiment joins the queue; `grant(count, why)` carries each new decision to it.
    using Grant = std::function<void(int count, const QString& why)>;
    void join(int key, const QString& user, int priority, Grant grant);
    void nameOf(int key, const QString& experiment);
    void demand(int key, const SlotDemand& demand);
    void leave(int key);

    // The queue as `tunedeck-engine queue` and the control API's `queue` show it.
    QJsonObject describe() const;

  private:
    struct Member {
        QString experiment;
        QString user;
        int priority = 0;
        SlotDemand demand;
        bool reported = false;      // no demand yet: not placed, not counted
        double waitingSinceS = -1;  // wanted room and ran nothing since then
        int granted = -1;
        QString why;
        Grant grant;
    };

    void scheduleDecision();
    void decide();
    NodeCapacity machineInUse() const;

    NodeCapacity machine_;
    SharePolicy policy_;
    std::map<int, Member> members_;
    QTimer tick_;
    bool decisionQueued_ = false;
};

}  // namespace tunedeck::cli
