// Sharing one engine's nodes between several experiments of several users (issue 22: `serve`
// with a queue), with the policies an HPC scheduler uses:
//   priority     a higher `priority` experiment is served first;
//   fair share   among equal priorities, the experiment with the smallest dominant share (its
//                largest fraction of the cluster's CPUs or GPUs in use: Dominant Resource
//                Fairness) gets the next slot, so a GPU-heavy and a CPU-heavy experiment both
//                progress;
//   quota        a user never holds more than their CPUs and GPUs quota at once;
//   backfill     when the experiment first in line does not fit now, smaller trials of others
//                use the gap;
//   no starvation an experiment that has waited past `starvationS` without a trial running is
//                no longer passed over: nothing is backfilled ahead of it until it starts.
// allocateSlots() hands out the free room one trial at a time and says, for every experiment left
// waiting, why. Pure; the caller's clock.
#pragma once

#include <QMap>
#include <QString>
#include <vector>

#include "core/experiment_spec.h"
#include "core/placement.h"

namespace tunedeck {

struct SharedExperiment {
    QString id;
    QString user;
    int priority = 0;
    ResourceRequest request;   // per trial
    int running = 0;           // trials it runs now
    int waiting = 0;           // trials that could start now
    double waitingSinceS = 0;  // since when it has had a waiting trial and none running
};

struct UserQuota {
    double cpu = -1;  // -1: no limit
    double gpu = -1;
};

struct SharePolicy {
    QMap<QString, UserQuota> quotas;  // by user; users not listed have no limit
    double starvationS = 600;
};

struct SlotGrant {
    QString experimentId;
    Placement placement;
};

struct ShareWait {
    QString experimentId;
    QString why;
};

struct SharePlan {
    std::vector<SlotGrant> grants;  // in the order they were decided
    std::vector<ShareWait> waits;   // every experiment with trials still waiting
};

// `nodes` as they are now (running trials booked); not changed.
SharePlan allocateSlots(const std::vector<SharedExperiment>& experiments,
                        const std::vector<NodeCapacity>& nodes, const SharePolicy& policy,
                        double nowS);

}  // namespace tunedeck
