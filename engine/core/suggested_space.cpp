#include "core/suggested_space.h"

#include <algorithm>

namespace tunedeck {

void AskedDistributions::note(const QString& name, const SuggestedDistribution& distribution) {
    const auto [it, added] = byName_.emplace(name, distribution);
    if (!added && !(it->second == distribution)) {
        varying_.insert(name);
    }
}

QJsonObject AskedDistributions::toJson() const {
    QJsonObject distributions;
    for (const auto& [name, distribution] : byName_) {
        distributions.insert(name, distribution.toJson());
    }
    QJsonArray varying;
    for (const QString& name : varying_) {
        varying.append(name);
    }
    return {{QStringLiteral("distributions"), distributions}, {QStringLiteral("varying"), varying}};
}

Status AskedDistributions::fromJson(const QJsonObject& json, AskedDistributions* out) {
    AskedDistributions asked;
    const QJsonObject distributions = json.value(QStringLiteral("distributions")).toObject();
    for (auto it = distributions.begin(); it != distributions.end(); ++it) {
        SuggestedDistribution distribution;
        if (Status s = SuggestedDistribution::fromJson(it.value().toObject(), &distribution); !s) {
            return Status::corruption(
                QStringLiteral("the distribution asked for '%1': %2").arg(it.key(), s.message()));
        }
        asked.byName_.emplace(it.key(), distribution);
    }
    for (const QJsonValue& name : json.value(QStringLiteral("varying")).toArray()) {
        asked.varying_.insert(name.toString());
    }
    *out = std::move(asked);
    return Status::ok();
}

void CommonNames::catchUp(const std::vector<Observation>& finished) {
    for (; seen_ < finished.size(); ++seen_) {
        const QJsonObject& config = finished[seen_].config;
        if (seen_ == 0) {
            for (auto it = config.begin(); it != config.end(); ++it) {
                names_.insert(it.key());
            }
            continue;
        }
        std::erase_if(names_, [&config](const QString& name) { return !config.contains(name); });
    }
}

SuggestedSpace SuggestedSpace::over(const CommonNames& common, const AskedDistributions& asked) {
    SuggestedSpace space;
    for (const auto& [name, distribution] : asked.byName()) {
        if (distribution.kind != SuggestedDistribution::Kind::Categorical &&
            distribution.low != distribution.high && !asked.varies(name) && common.holds(name)) {
            space.coordinates_.push_back({name, distribution});
        }
    }
    return space;
}

std::optional<int> SuggestedSpace::indexOf(const QString& name,
                                           const SuggestedDistribution& distribution) const {
    for (int i = 0; i < dimensions(); ++i) {
        if (coordinates_[size_t(i)].name == name) {
            return coordinates_[size_t(i)].distribution == distribution ? std::optional<int>(i)
                                                                        : std::nullopt;
        }
    }
    return std::nullopt;
}

QJsonValue SuggestedSpace::valueAt(int index, double unit) const {
    const SuggestedDistribution& d = coordinates_[size_t(index)].distribution;
    const tpe::Axis axis = d.axis();
    return d.fromModel(axis.low + std::clamp(unit, 0.0, 1.0) * (axis.high - axis.low));
}

std::optional<double> SuggestedSpace::unitOf(int index, const QJsonValue& value) const {
    const SuggestedDistribution& d = coordinates_[size_t(index)].distribution;
    const std::optional<double> model = d.toModel(value);
    if (!model) {
        return std::nullopt;
    }
    const tpe::Axis axis = d.axis();
    return std::clamp((*model - axis.low) / (axis.high - axis.low), 0.0, 1.0);
}

Eigen::VectorXd SuggestedSpace::encode(const QJsonObject& config,
                                       const Eigen::VectorXd& fallback) const {
    Eigen::VectorXd point = fallback;
    for (int i = 0; i < dimensions(); ++i) {
        if (const auto unit = unitOf(i, config.value(coordinates_[size_t(i)].name))) {
            point[i] = *unit;
        }
    }
    return point;
}

QJsonArray SuggestedSpace::toJson() const {
    QJsonArray json;
    for (const Coordinate& c : coordinates_) {
        json.append(QJsonObject{{QStringLiteral("name"), c.name},
                                {QStringLiteral("distribution"), c.distribution.toJson()}});
    }
    return json;
}

Status SuggestedSpace::fromJson(const QJsonArray& json, SuggestedSpace* out) {
    SuggestedSpace space;
    for (const QJsonValue& item : json) {
        const QJsonObject entry = item.toObject();
        Coordinate c;
        c.name = entry.value(QStringLiteral("name")).toString();
        if (Status s = SuggestedDistribution::fromJson(
                entry.value(QStringLiteral("distribution")).toObject(), &c.distribution);
            !s || c.name.isEmpty() ||
            c.distribution.kind == SuggestedDistribution::Kind::Categorical) {
            return Status::corruption(
                QStringLiteral("a coordinate of the asked space is unreadable"));
        }
        space.coordinates_.push_back(std::move(c));
    }
    *out = std::move(space);
    return Status::ok();
}

}  // namespace tunedeck
