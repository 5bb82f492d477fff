// Maps the numeric part of a search space to the unit cube [0, 1]^d and back, for the searchers
// that model a continuous space (bayesopt, cmaes, pb2). Each unconditional numeric parameter
// (uniform, loguniform, randint, normal, their q and log variants; not inside a choice option)
// is one coordinate: linear in the value, or in its logarithm for log kinds; integers and q
// kinds round on the way back. A normal maps mu -/+ 3 sigma to 0 and 1. Everything else
// (choice, grid, conditional parameters) is not a coordinate and is listed by skipped(), for the
// searcher to sample, refuse, or leave to SearchSpace::sample. Value type; thread-safe to read.
#pragma once

#include <Eigen/Dense>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/search_space.h"

namespace tunedeck {

class UnitCube {
  public:
    explicit UnitCube(const SearchSpace& space);

    int dimensions() const { return int(coordinates_.size()); }
    // Dotted paths of the coordinates, in the order written.
    QStringList paths() const;
    // Dotted paths of the sampled parameters that are not coordinates (choice, grid, `when`).
    const QStringList& skipped() const { return skipped_; }

    // The values of every coordinate for a point (each clamped to [0, 1] first), as a config
    // holding only those parameters (nested groups as mappings), ready to be passed as the
    // fixed values of SearchSpace::sample.
    QJsonObject decode(const Eigen::VectorXd& point) const;
    // The point of a config, or nullopt when a coordinate's value is missing or not a number.
    std::optional<Eigen::VectorXd> encode(const QJsonObject& config) const;

  private:
    struct Coordinate {
        QString path;
        Domain domain;
    };
    std::vector<Coordinate> coordinates_;
    QStringList skipped_;
};

}  // namespace tunedeck
