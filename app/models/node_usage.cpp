#include "models/node_usage.h"

#include <QCoreApplication>

#include <QJsonArray>
#include <algorithm>
#include <memory>

#include "core/events.h"
#include "store/history_reader.h"

namespace tunedeck::app {

namespace {

void append(std::deque<UsagePoint>& series, double time, double value) {
    if (!series.empty() && time <= series.back().time) {
        return;  // a sample already seen (read from the history, then replayed)
    }
    series.push_back({time, value});
    while (series.size() > NodeUsageModel::kMaxPoints) {
        series.pop_front();
    }
}

double percentOf(long long used, long long total) {
    return total > 0 ? 100.0 * double(used) / double(total) : 0.0;
}

}  // namespace

bool NodeUsageModel::apply(const events::Event& event) {
    if (const auto* status = event.as<events::TrialStatusEvent>()) {
        return applyStatus(*status);
    }
    if (const auto* node = event.as<events::NodeEvent>()) {
        if (node->state != QLatin1String("gpu_sharing")) {
            return applyLifecycle(*node);
        }
        // gpu_sharing's details: how the node shares its cards, and why not MPS.
        sharing_[node->node] = GpuSharing{node->details.value(QLatin1String("mode")).toString(),
                                          node->details.value(QLatin1String("reason")).toString()};
        return true;
    }
    if (const auto* sample = event.as<events::NodeUsageEvent>()) {
        applySample(*sample, event.time);
        return true;
    }
    return false;
}

bool NodeUsageModel::applyLifecycle(const events::NodeEvent& event) {
    static const QStringList kStates{
        QStringLiteral("launching"),     QStringLiteral("ready"),      QStringLiteral("up"),
        QStringLiteral("terminating"),   QStringLiteral("terminated"), QStringLiteral("lost"),
        QStringLiteral("launch_failed"), QStringLiteral("max_workers")};
    if (!kStates.contains(event.state)) {
        return false;  // gpu_lost and the like: the samples show them
    }
    // `up` carries the agent's hello, whose keys are the agent's, not the autoscaler's.
    const bool hello = event.state == QLatin1String("up");
    const QString type = hello ? QString() : event.details.value(QLatin1String("type")).toString();
    const QString reason = event.details.value(QLatin1String("reason")).toString();
    ScalingDecision decision{event.node,
                             event.state,
                             type,
                             reason,
                             event.details.value(QLatin1String("decision")).toString(),
                             event.details.value(QLatin1String("seconds_from_launch")).toDouble()};
    autoscaled_ = autoscaled_ || !type.isEmpty();  // only the autoscaler's events name a type
    if (event.state == QLatin1String("max_workers")) {
        maxWorkers_[type] = event.details.value(QLatin1String("max_workers")).toInt();
    }
    if (!event.node.isEmpty()) {
        NodeLifecycle& node = lifecycles_[event.node];
        if (!type.isEmpty()) {
            node.type = type;
        }
        decision.type = node.type;
        // `up` is the agent's hello, also a listed node's: ready, and no decision of its own.
        node.state = hello ? QStringLiteral("ready") : event.state;
        if (event.state != QLatin1String("ready") && event.state != QLatin1String("terminated") &&
            !hello) {
            node.reason = reason;
        }
    }
    // `terminated` ends a termination that was listed when it was decided: no decision of its own.
    if (hello || event.state == QLatin1String("terminated")) {
        return true;
    }
    // The nodes of one launch each carry the same decision: it is listed once.
    if (!decision.decision.isEmpty() && !decisions_.empty() &&
        decisions_.back().decision == decision.decision) {
        return true;
    }
    decisions_.push_back(std::move(decision));
    while (decisions_.size() > kMaxDecisions) {
        decisions_.pop_front();
    }
    return true;
}

QStringList NodeUsageModel::nodeTypes() const {
    QStringList types;
    for (const auto& [id, node] : lifecycles_) {
        if (!node.type.isEmpty() && !types.contains(node.type)) {
            types << node.type;
        }
    }
    for (const auto& [type, cap] : maxWorkers_) {
        if (!type.isEmpty() && !types.contains(type)) {
            types << type;
        }
    }
    types.sort();
    return types;
}

void NodeUsageModel::applySample(const events::NodeUsageEvent& sample, double time) {
    if (nodes_.empty() || time < firstTime_) {
        firstTime_ = time;
    }
    lastTime_ = std::max(lastTime_, time);

    NodeUsage& node = nodes_[sample.node];
    node.node = sample.node;
    // A reading the node could not give shows as 0, as before the samples were typed.
    node.cpuPercent = sample.cpuPercent.value_or(0);
    node.memoryUsedMb = sample.memoryUsedMb;
    node.memoryTotalMb = sample.memoryTotalMb;
    append(node.cpuSeries, time, node.cpuPercent);
    append(node.memorySeries, time, percentOf(node.memoryUsedMb, node.memoryTotalMb));

    for (const events::GpuUsage& gpu : sample.gpus) {
        GpuCard& card = cards_[{sample.node, gpu.index}];
        card.node = sample.node;
        card.index = gpu.index;
        card.uuid = gpu.uuid;
        card.name = gpu.name;
        card.utilization = gpu.utilizationPercent.value_or(0);
        card.memoryUsedMb = gpu.memoryUsedMb;
        card.memoryTotalMb = gpu.memoryTotalMb;
        card.temperatureC = gpu.temperatureC.value_or(0);
        card.powerW = gpu.powerW.value_or(0);
        card.lost = gpu.lost;
        driverTrials_[{sample.node, gpu.index}] = gpu.trials;
        listTrials(card);
        append(card.utilizationSeries, time, card.utilization);
        append(card.memorySeries, time, percentOf(card.memoryUsedMb, card.memoryTotalMb));
    }
}

bool NodeUsageModel::applyStatus(const events::TrialStatusEvent& status) {
    QString& node = trialNodes_[status.trial];
    if (status.node) {
        node = *status.node;
    }
    const auto was = placed_.find(status.trial);
    const bool wasPlaced = was != placed_.end();
    std::vector<Placed> where;
    if (status.status == QLatin1String("RUNNING")) {
        for (const events::RankPlacement& rank : status.ranks) {
            if (!rank.gpus.empty()) {
                where.push_back(Placed{rank.node, rank.gpus, rank.rank});
            }
        }
        if (status.ranks.empty() && !status.gpus.empty()) {
            where.push_back(Placed{node, status.gpus, -1});
        }
    }
    if (!where.empty()) {
        if (wasPlaced && was->second == where) {
            return false;  // a reason changed, not the placement
        }
        placed_[status.trial] = std::move(where);
    } else if (wasPlaced && status.status != QLatin1String("RUNNING")) {
        placed_.erase(was);
    } else {
        return false;
    }
    for (auto& [key, card] : cards_) {
        listTrials(card);
    }
    return true;
}

void NodeUsageModel::listTrials(GpuCard& card) const {
    card.trials.clear();
    QStringList placedIds;
    for (const auto& [trial, ranks] : placed_) {
        for (const Placed& where : ranks) {
            if (where.node == card.node &&
                std::find(where.gpus.begin(), where.gpus.end(), card.index) != where.gpus.end()) {
                card.trials << (where.rank < 0
                                    ? trial
                                    : QCoreApplication::translate("NodeUsageModel", "%1 (rank %2)")
                                          .arg(trial)
                                          .arg(where.rank));
                placedIds << trial;
            }
        }
    }
    const auto named = driverTrials_.find({card.node, card.index});
    if (named != driverTrials_.end()) {
        for (const QString& trial : named->second) {
            if (!placedIds.contains(trial)) {
                card.trials << trial;
            }
        }
    }
}

void NodeUsageModel::clear() {
    nodes_.clear();
    cards_.clear();
    sharing_.clear();
    lifecycles_.clear();
    decisions_.clear();
    autoscaled_ = false;
    placed_.clear();
    trialNodes_.clear();
    driverTrials_.clear();
    firstTime_ = lastTime_ = 0;
}

const GpuSharing* NodeUsageModel::gpuSharing(const QString& node) const {
    const auto found = sharing_.find(node);
    return found == sharing_.end() ? nullptr : &found->second;
}

std::vector<const GpuCard*> NodeUsageModel::cards() const {
    std::vector<const GpuCard*> all;
    all.reserve(cards_.size());
    for (const auto& [key, card] : cards_) {
        all.push_back(&card);
    }
    return all;
}

bool readNodeUsage(const QString& folder, const std::function<void(events::Event&&)>& apply,
                   QString* error) {
    std::unique_ptr<store::HistoryReader> reader;
    std::vector<store::HistoryNodeUsage> samples;
    // How each node shared its cards: a `node` event or two, told apart by their state.
    std::vector<QJsonObject> nodeEvents;
    // Where the trials still running when the file was read were placed.
    std::vector<QJsonObject> statusEvents;
    Status status =
        store::HistoryReader::open(folder + QStringLiteral("/experiment.sqlite"), &reader);
    if (status) {
        status = reader->readNodeUsage(&samples);
    }
    if (status) {
        status = reader->readEvents(events::type::kNode, &nodeEvents);
    }
    if (status) {
        status = reader->readEvents(events::type::kTrialStatus, &statusEvents);
    }
    if (!status) {
        *error = status.message();
        return false;
    }
    for (const store::HistoryNodeUsage& sample : samples) {
        // Rebuilt by the engine's own builder, so a sample recorded by any version reads alike.
        events::NodeUsageEvent decoded;
        status = events::decodeNodeUsage(events::nodeUsage(sample.node, sample.usage), &decoded);
        if (!status) {
            *error = status.message();
            return false;
        }
        // A gang's ranks, which the builder does not carry: each entry's as the sample has it.
        const QJsonArray entries = sample.usage.value(QLatin1String("trials")).toArray();
        for (std::size_t i = 0; i < decoded.trials.size() && i < std::size_t(entries.size()); ++i) {
            const QJsonValue rank =
                entries.at(qsizetype(i)).toObject().value(QLatin1String("rank"));
            if (rank.isDouble()) {
                decoded.trials[i].rank = rank.toInt();
            }
        }
        apply(events::Event{0, sample.timestamp, std::move(decoded)});
    }
    for (const QJsonObject& payload : nodeEvents) {
        events::NodeEvent decoded;
        status = events::decodeNode(payload, &decoded);
        if (!status) {
            *error = status.message();
            return false;
        }
        apply(events::Event{0, 0, std::move(decoded)});
    }
    for (const QJsonObject& payload : statusEvents) {
        events::TrialStatusEvent decoded;
        if (events::decodeTrialStatus(payload, &decoded)) {
            apply(events::Event{0, 0, std::move(decoded)});
        }
    }
    return true;
}

}  // namespace tunedeck::app
