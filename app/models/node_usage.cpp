#include "models/node_usage.h"

#include <QJsonArray>
#include <memory>

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

bool NodeUsageModel::apply(const QJsonObject& event) {
    const QString type = event.value("type").toString();
    if (type == QLatin1String("node") &&
        event.value("state").toString() == QLatin1String("gpu_sharing")) {
        const QJsonObject details = event.value("details").toObject();
        sharing_[event.value("node").toString()] =
            GpuSharing{details.value("mode").toString(), details.value("reason").toString()};
        return true;
    }
    if (type != QLatin1String("node_usage")) {
        return false;
    }
    const QString nodeId = event.value("node").toString();
    const double time = event.value("time").toDouble();
    if (nodes_.empty() || time < firstTime_) {
        firstTime_ = time;
    }
    lastTime_ = std::max(lastTime_, time);

    NodeUsage& node = nodes_[nodeId];
    node.node = nodeId;
    node.cpuPercent = event.value("cpu_percent").toDouble();
    node.memoryUsedMb = event.value("memory_used_mb").toInteger();
    node.memoryTotalMb = event.value("memory_total_mb").toInteger();
    append(node.cpuSeries, time, node.cpuPercent);
    append(node.memorySeries, time, percentOf(node.memoryUsedMb, node.memoryTotalMb));

    for (const QJsonValue& value : event.value("gpus").toArray()) {
        const QJsonObject gpu = value.toObject();
        const int index = gpu.value("index").toInt();
        GpuCard& card = cards_[{nodeId, index}];
        card.node = nodeId;
        card.index = index;
        card.uuid = gpu.value("uuid").toString();
        card.name = gpu.value("name").toString();
        card.utilization = gpu.value("utilization_percent").toDouble();
        card.memoryUsedMb = gpu.value("memory_used_mb").toInteger();
        card.memoryTotalMb = gpu.value("memory_total_mb").toInteger();
        card.temperatureC = gpu.value("temperature_c").toDouble();
        card.powerW = gpu.value("power_w").toDouble();
        card.lost = gpu.value("lost").toBool();
        card.trials.clear();
        for (const QJsonValue& trial : gpu.value("trials").toArray()) {
            card.trials << trial.toString();
        }
        append(card.utilizationSeries, time, card.utilization);
        append(card.memorySeries, time, percentOf(card.memoryUsedMb, card.memoryTotalMb));
    }
    return true;
}

void NodeUsageModel::clear() {
    nodes_.clear();
    cards_.clear();
    sharing_.clear();
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

bool readNodeUsage(const QString& folder, NodeUsageModel* usage, QString* error) {
    std::unique_ptr<store::HistoryReader> reader;
    std::vector<store::HistoryNodeUsage> samples;
    // How each node shared its cards: a `node` event or two, told apart by their state.
    std::vector<QJsonObject> nodeEvents;
    Status status =
        store::HistoryReader::open(folder + QStringLiteral("/experiment.sqlite"), &reader);
    if (status) {
        status = reader->readNodeUsage(&samples);
    }
    if (status) {
        status = reader->readEvents(QStringLiteral("node"), &nodeEvents);
    }
    if (!status) {
        *error = status.message();
        return false;
    }
    for (store::HistoryNodeUsage& sample : samples) {
        QJsonObject event = std::move(sample.usage);
        event.insert(QStringLiteral("type"), QStringLiteral("node_usage"));
        event.insert(QStringLiteral("time"), sample.timestamp);
        event.insert(QStringLiteral("node"), sample.node);
        usage->apply(event);
    }
    for (QJsonObject& event : nodeEvents) {
        event.insert(QStringLiteral("type"), QStringLiteral("node"));
        usage->apply(event);
    }
    return true;
}

}  // namespace tunedeck::app
