#include "config/spec_summary.h"

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

namespace tunedeck {

namespace {

std::optional<MetricMode> modeFromYaml(const YAML::Node& node) {
    if (!node || !node.IsScalar()) {
        return std::nullopt;
    }
    return node.as<std::string>() == "min" ? MetricMode::Min : MetricMode::Max;
}

}  // namespace

SpecSummary summarizeSpec(const QString& specText) {
    SpecSummary summary;
    summary.schedulerType = QStringLiteral("fifo");
    try {
        const YAML::Node root = YAML::Load(specText.toStdString());
        if (root["name"] && root["name"].IsScalar()) {
            summary.name = QString::fromStdString(root["name"].as<std::string>());
        }
        const YAML::Node metric = root["metric"];
        const YAML::Node mode = root["mode"];
        if (metric && metric.IsScalar()) {
            summary.objectives.push_back({QString::fromStdString(metric.as<std::string>()),
                                          modeFromYaml(mode).value_or(MetricMode::Max)});
        } else if (metric && metric.IsSequence()) {
            for (std::size_t i = 0; i < metric.size(); ++i) {
                if (!metric[i].IsScalar()) {
                    continue;
                }
                const YAML::Node itsMode = mode && mode.IsSequence() ? mode[i] : mode;
                summary.objectives.push_back({QString::fromStdString(metric[i].as<std::string>()),
                                              modeFromYaml(itsMode).value_or(MetricMode::Max)});
            }
        }
        if (!summary.objectives.empty()) {
            summary.metric = summary.objectives.front().metric;
            summary.mode = summary.objectives.front().mode;
        }
        const YAML::Node scheduler = root["scheduler"];
        if (scheduler && scheduler.IsScalar()) {
            summary.schedulerType = QString::fromStdString(scheduler.as<std::string>());
        } else if (scheduler && scheduler.IsMap() && scheduler["type"] &&
                   scheduler["type"].IsScalar()) {
            summary.schedulerType = QString::fromStdString(scheduler["type"].as<std::string>());
        }
    } catch (const YAML::Exception&) {
        // A stored spec was valid when it ran; an unreadable one leaves the summary empty.
    }
    return summary;
}

}  // namespace tunedeck
