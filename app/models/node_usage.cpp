#include "models/node_usage.h"

#include <sqlite3.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <memory>

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
    const QByteArray path = (folder + QStringLiteral("/experiment.sqlite")).toUtf8();
    sqlite3* raw = nullptr;
    if (sqlite3_open_v2(path.constData(), &raw, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        *error = QStringLiteral("%1: %2").arg(QString::fromUtf8(path),
                                              QString::fromUtf8(sqlite3_errmsg(raw)));
        sqlite3_close(raw);
        return false;
    }
    const std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
    sqlite3_busy_timeout(raw, 2000);  // the engine may be writing
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(raw, "SELECT timestamp, node, data FROM node_usage ORDER BY seq", -1,
                           &statement, nullptr) != SQLITE_OK) {
        return true;  // a history from before node samples were recorded: nothing to read
    }
    const std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> rows(statement,
                                                                          &sqlite3_finalize);
    int step;
    while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, 2));
        QJsonObject event = QJsonDocument::fromJson(QByteArray(text ? text : "{}")).object();
        event.insert(QStringLiteral("type"), QStringLiteral("node_usage"));
        event.insert(QStringLiteral("time"), sqlite3_column_double(statement, 0));
        event.insert(
            QStringLiteral("node"),
            QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(statement, 1))));
        usage->apply(event);
    }
    if (step != SQLITE_DONE) {
        *error = QStringLiteral("%1: %2").arg(QString::fromUtf8(path),
                                              QString::fromUtf8(sqlite3_errmsg(raw)));
        return false;
    }
    // How each node shared its cards: a `node` event or two, told apart by their state.
    sqlite3_stmt* nodeEvents = nullptr;
    if (sqlite3_prepare_v2(raw, "SELECT payload FROM events WHERE type = 'node' ORDER BY seq", -1,
                           &nodeEvents, nullptr) != SQLITE_OK) {
        return true;
    }
    const std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> events(nodeEvents,
                                                                            &sqlite3_finalize);
    while (sqlite3_step(nodeEvents) == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(nodeEvents, 0));
        QJsonObject event = QJsonDocument::fromJson(QByteArray(text ? text : "{}")).object();
        event.insert(QStringLiteral("type"), QStringLiteral("node"));
        usage->apply(event);
    }
    return true;
}

}  // namespace tunedeck::app
