#include "cli/slot_broker.h"

#include <QDateTime>
#include <QJsonArray>
#include <QStringList>
#include <algorithm>

namespace tunedeck::cli {

namespace {

constexpr int kTickMs = 1000;

double nowS() {
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

// Why an experiment may not start all it wants, in the words of the rule that holds it back:
// the policy's own reason (a quota, an experiment that starves), the experiments of higher
// priority that take the room, the equal ones it shares with, or the room itself.
QString waitReason(const SharedExperiment& e, const std::vector<SharedExperiment>& all,
                   const SharePlan& fair, const QString& policyWhy, const QString& roomWhy,
                   bool heldToShare) {
    if (!policyWhy.isEmpty() && !policyWhy.startsWith(QLatin1String("waiting for resources"))) {
        return policyWhy;
    }
    QStringList higher;
    QStringList equal;
    for (const SharedExperiment& other : all) {
        const bool served =
            std::any_of(fair.grants.begin(), fair.grants.end(),
                        [&](const SlotGrant& g) { return g.experimentId == other.id; });
        if (other.id == e.id || !served) {
            continue;
        }
        if (other.priority > e.priority) {
            higher << QStringLiteral("%1 (priority %2)").arg(other.id).arg(other.priority);
        } else if (other.priority == e.priority) {
            equal << other.id;
        }
    }
    if (!higher.isEmpty()) {
        return QStringLiteral("higher priority first: %1").arg(higher.join(QStringLiteral(", ")));
    }
    if (heldToShare && !equal.isEmpty()) {
        return QStringLiteral("fair share with %1").arg(equal.join(QStringLiteral(", ")));
    }
    if (roomWhy.isEmpty() || roomWhy.startsWith(QLatin1String("waiting for resources"))) {
        // The machine is full of running trials: the next slot goes to it when one ends.
        return QStringLiteral(
            "the machine is full; the next slot that frees is its (running "
            "trials are not stopped to make room)");
    }
    return roomWhy;
}

}  // namespace

SlotBroker::SlotBroker(NodeCapacity machine, SharePolicy policy, QObject* parent)
    : QObject(parent), machine_(std::move(machine)), policy_(std::move(policy)) {
    tick_.setInterval(kTickMs);
    connect(&tick_, &QTimer::timeout, this, &SlotBroker::decide);
    tick_.start();
}

void SlotBroker::join(int key, const QString& user, int priority, Grant grant) {
    Member& m = members_[key];
    m.user = user;
    m.priority = priority;
    m.grant = std::move(grant);
}

void SlotBroker::nameOf(int key, const QString& experiment) {
    if (auto it = members_.find(key); it != members_.end()) {
        it->second.experiment = experiment;
    }
}

void SlotBroker::demand(int key, const SlotDemand& demand) {
    auto it = members_.find(key);
    if (it == members_.end()) {
        return;
    }
    Member& m = it->second;
    m.demand = demand;
    m.reported = true;
    if (demand.running > 0 || demand.wanted == 0) {
        m.waitingSinceS = -1;
    } else if (m.waitingSinceS < 0) {
        m.waitingSinceS = nowS();
    }
    scheduleDecision();
}

void SlotBroker::leave(int key) {
    if (members_.erase(key) > 0) {
        scheduleDecision();
    }
}

void SlotBroker::scheduleDecision() {
    // Several demand lines often arrive in one turn of the event loop: decide once for all.
    if (!decisionQueued_) {
        decisionQueued_ = true;
        QTimer::singleShot(0, this, [this] {
            decisionQueued_ = false;
            decide();
        });
    }
}

NodeCapacity SlotBroker::machineInUse() const {
    // Each running trial booked where placement (core/placement.h) would put it, so the cards'
    // shares fill as the experiments' own runs fill them.
    std::vector<NodeCapacity> nodes = {machine_};
    for (const auto& [key, m] : members_) {
        ResourceRequest request;
        request.cpu = m.demand.cpu;
        request.gpu = m.demand.gpu;
        for (int i = 0; i < m.demand.running; ++i) {
            if (const Placement p = place(request, nodes); p.placed) {
                reserve(nodes, request, p);
            } else {
                // More runs than the room (an experiment above its share keeps what it runs):
                // its CPUs still count as taken.
                nodes.front().cpuUsedMilli += toMilli(request.cpu);
            }
        }
    }
    return nodes.front();
}

// Two allocations by the same policy: `fair`, of the whole machine as if nothing ran (each
// experiment's share now), and `room`, of what is free now. An experiment may run what it runs
// plus what it gets of the room, but never more than its share: without that cap an experiment
// holding the machine would refill each slot that frees before a newcomer's turn came. Nothing
// running is stopped; an experiment above its share starts nothing until below it.
void SlotBroker::decide() {
    const double now = nowS();
    std::vector<SharedExperiment> experiments;
    std::map<QString, int> keyOf;
    for (const auto& [key, m] : members_) {
        if (!m.reported) {
            continue;
        }
        SharedExperiment e;
        e.id = m.experiment.isEmpty() ? QStringLiteral("#%1").arg(key) : m.experiment;
        e.user = m.user;
        e.priority = m.priority;
        e.request.cpu = m.demand.cpu;
        e.request.gpu = m.demand.gpu;
        e.running = m.demand.running;
        e.waiting = m.demand.wanted;
        e.waitingSinceS = m.waitingSinceS < 0 ? now : m.waitingSinceS;
        keyOf[e.id] = key;
        experiments.push_back(e);
    }
    std::vector<SharedExperiment> asIfIdle = experiments;
    for (SharedExperiment& e : asIfIdle) {
        e.waiting += e.running;
        e.running = 0;
    }
    const SharePlan fair = allocateSlots(asIfIdle, {machine_}, policy_, now);
    const SharePlan room = allocateSlots(experiments, {machineInUse()}, policy_, now);
    const auto grantsTo = [](const SharePlan& plan, const QString& id) {
        return int(std::count_if(plan.grants.begin(), plan.grants.end(),
                                 [&](const SlotGrant& g) { return g.experimentId == id; }));
    };
    const auto whyOf = [](const SharePlan& plan, const QString& id) {
        for (const ShareWait& w : plan.waits) {
            if (w.experimentId == id) {
                return w.why;
            }
        }
        return QString();
    };
    for (const SharedExperiment& e : experiments) {
        Member& m = members_[keyOf[e.id]];
        const int share = grantsTo(fair, e.id);
        const int free = e.running + grantsTo(room, e.id);
        const int count = std::min(free, share);
        QString why;
        if (count < e.running + e.waiting) {
            why = waitReason(e, experiments, fair, whyOf(fair, e.id), whyOf(room, e.id),
                             share < free);
        }
        if (count != m.granted || why != m.why) {
            m.granted = count;
            m.why = why;
            m.grant(count, why);
        }
    }
}

QJsonObject SlotBroker::describe() const {
    QJsonArray rows;
    for (const auto& [key, m] : members_) {
        rows.append(QJsonObject{{"experiment", m.experiment},
                                {"user", m.user},
                                {"priority", m.priority},
                                {"running", m.demand.running},
                                {"wanted", m.demand.wanted},
                                {"slots", std::max(0, m.granted)},
                                {"cpu", m.demand.cpu},
                                {"gpu", m.demand.gpu},
                                {"why", m.why}});
    }
    const NodeCapacity inUse = machineInUse();
    std::int64_t gpuUsed = 0;
    for (std::int64_t used : inUse.gpuUsedMilli) {
        gpuUsed += used;
    }
    return {{"capacity", QJsonObject{{"cpu", double(machine_.cpuTotalMilli) / kMilliPerUnit},
                                     {"gpu", double(machine_.gpuUsedMilli.size())}}},
            {"in_use", QJsonObject{{"cpu", double(inUse.cpuUsedMilli) / kMilliPerUnit},
                                   {"gpu", double(gpuUsed) / kMilliPerUnit}}},
            {"experiments", rows}};
}

}  // namespace tunedeck::cli
