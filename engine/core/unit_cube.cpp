#include "core/unit_cube.h"

namespace tunedeck {

namespace {

void collect(const SearchSpace& space, const QString& prefix, std::vector<QString>* paths,
             std::vector<Domain>* domains, QStringList* skipped) {
    for (const Parameter& parameter : space.parameters) {
        const QString path =
            prefix.isEmpty() ? parameter.name : prefix + QLatin1Char('.') + parameter.name;
        if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            if (parameter.when) {
                skipped->append(path);
            } else {
                collect(*parameter.group, path, paths, domains, skipped);
            }
            continue;
        }
        if (parameter.kind != Parameter::Kind::Sampled) {
            continue;
        }
        if (parameter.when || !isNumericDomain(parameter.domain.kind)) {
            skipped->append(path);
            continue;
        }
        paths->push_back(path);
        domains->push_back(parameter.domain);
    }
}

}  // namespace

UnitCube::UnitCube(const SearchSpace& space) {
    std::vector<QString> paths;
    std::vector<Domain> domains;
    collect(space, QString(), &paths, &domains, &skipped_);
    for (size_t i = 0; i < paths.size(); ++i) {
        coordinates_.push_back({paths[i], domains[i]});
    }
}

QStringList UnitCube::paths() const {
    QStringList paths;
    for (const Coordinate& coordinate : coordinates_) {
        paths.append(coordinate.path);
    }
    return paths;
}

QJsonObject UnitCube::decode(const Eigen::VectorXd& point) const {
    QJsonObject config;
    for (size_t i = 0; i < coordinates_.size() && Eigen::Index(i) < point.size(); ++i) {
        setValueAtPath(config, coordinates_[i].path,
                       coordinates_[i].domain.fromUnit(point[Eigen::Index(i)]));
    }
    return config;
}

std::optional<Eigen::VectorXd> UnitCube::encode(const QJsonObject& config) const {
    Eigen::VectorXd point(Eigen::Index(coordinates_.size()));
    for (size_t i = 0; i < coordinates_.size(); ++i) {
        const auto unit = coordinates_[i].domain.toUnit(valueAtPath(config, coordinates_[i].path));
        if (!unit) {
            return std::nullopt;
        }
        point[Eigen::Index(i)] = *unit;
    }
    return point;
}

}  // namespace tunedeck
