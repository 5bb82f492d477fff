#include "core/fair_share.h"

#include <algorithm>
#include <map>

namespace tunedeck {

namespace {

struct Usage {
    std::int64_t cpu = 0;  // milli-units
    std::int64_t gpu = 0;
};

struct Candidate {
    const SharedExperiment* experiment = nullptr;
    int running = 0;
    int waiting = 0;
    Usage used;
    bool starving = false;
    QString why;
};

QString amount(std::int64_t milli) {
    return QString::number(double(milli) / kMilliPerUnit, 'g', 12);
}

double share(std::int64_t used, std::int64_t total) {
    return total > 0 ? double(used) / double(total) : 0;
}

}  // namespace

SharePlan allocateSlots(const std::vector<SharedExperiment>& experiments,
                        const std::vector<NodeCapacity>& nodes, const SharePolicy& policy,
                        double nowS) {
    std::vector<NodeCapacity> room = nodes;
    std::int64_t cpuTotal = 0;
    std::int64_t gpuTotal = 0;
    for (const NodeCapacity& node : nodes) {
        if (node.alive) {
            cpuTotal += node.cpuTotalMilli;
            gpuTotal += std::int64_t(node.gpuUsedMilli.size()) * kMilliPerUnit;
        }
    }
    std::vector<Candidate> candidates;
    std::map<QString, Usage> byUser;
    for (const SharedExperiment& e : experiments) {
        Candidate c;
        c.experiment = &e;
        c.running = e.running;
        c.waiting = e.waiting;
        c.used = {e.running * toMilli(e.request.cpu), e.running * toMilli(e.request.gpu)};
        c.starving =
            e.running == 0 && e.waiting > 0 && nowS - e.waitingSinceS >= policy.starvationS;
        byUser[e.user].cpu += c.used.cpu;
        byUser[e.user].gpu += c.used.gpu;
        candidates.push_back(c);
    }
    const auto dominantShare = [&](const Candidate& c) {
        return std::max(share(c.used.cpu, cpuTotal), share(c.used.gpu, gpuTotal));
    };
    // Who is served next: a starving experiment (the longest waiting), then priority, then the
    // smallest dominant share, then the longest waiting.
    const auto before = [&](const Candidate* a, const Candidate* b) {
        if (a->starving != b->starving) {
            return a->starving;
        }
        if (a->starving && a->experiment->waitingSinceS != b->experiment->waitingSinceS) {
            return a->experiment->waitingSinceS < b->experiment->waitingSinceS;
        }
        if (a->experiment->priority != b->experiment->priority) {
            return a->experiment->priority > b->experiment->priority;
        }
        if (dominantShare(*a) != dominantShare(*b)) {
            return dominantShare(*a) < dominantShare(*b);
        }
        if (a->experiment->waitingSinceS != b->experiment->waitingSinceS) {
            return a->experiment->waitingSinceS < b->experiment->waitingSinceS;
        }
        return a->experiment->id < b->experiment->id;
    };

    SharePlan plan;
    for (;;) {
        std::vector<Candidate*> order;
        for (Candidate& c : candidates) {
            if (c.waiting > 0) {
                order.push_back(&c);
            }
        }
        std::stable_sort(order.begin(), order.end(), before);
        bool granted = false;
        const Candidate* blockedBy = nullptr;
        for (Candidate* c : order) {
            const SharedExperiment& e = *c->experiment;
            if (blockedBy != nullptr) {
                c->why = QStringLiteral(
                             "held back: experiment %1 has waited %2 s and goes first "
                             "(no backfill ahead of it)")
                             .arg(blockedBy->experiment->id)
                             .arg(qint64(nowS - blockedBy->experiment->waitingSinceS));
                continue;
            }
            const UserQuota quota = policy.quotas.value(e.user);
            const Usage& user = byUser[e.user];
            const bool overCpu =
                quota.cpu >= 0 && user.cpu + toMilli(e.request.cpu) > toMilli(quota.cpu);
            const bool overGpu = quota.gpu >= 0 && e.request.gpu > 0 &&
                                 user.gpu + toMilli(e.request.gpu) > toMilli(quota.gpu);
            if (overCpu || overGpu) {
                c->why = QStringLiteral("quota of user %1 reached (%2 of %3 %4 in use)")
                             .arg(e.user)
                             .arg(amount(overCpu ? user.cpu : user.gpu))
                             .arg(overCpu ? quota.cpu : quota.gpu)
                             .arg(overCpu ? QStringLiteral("CPUs") : QStringLiteral("GPUs"));
                continue;
            }
            Placement p = place(e.request, room);
            if (!p.placed) {
                c->why = QStringLiteral("waiting for resources: %1").arg(p.reason);
                if (c->starving) {
                    blockedBy = c;  // nothing smaller is backfilled ahead of it
                }
                continue;
            }
            reserve(room, e.request, p);
            ++c->running;
            --c->waiting;
            c->used.cpu += toMilli(e.request.cpu);
            c->used.gpu += toMilli(e.request.gpu);
            byUser[e.user].cpu += toMilli(e.request.cpu);
            byUser[e.user].gpu += toMilli(e.request.gpu);
            c->why.clear();
            plan.grants.push_back({e.id, std::move(p)});
            granted = true;
            break;
        }
        if (!granted) {
            break;
        }
    }
    for (const Candidate& c : candidates) {
        if (c.waiting > 0) {
            plan.waits.push_back({c.experiment->id, c.why});
        }
    }
    return plan;
}

}  // namespace tunedeck
