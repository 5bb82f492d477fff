// The coordinates cmaes searches when trials ask for their parameters as they run (define-by-run,
// Optuna's trial.suggest_*): Optuna's relative search space of CmaEsSampler, the numeric
// distributions every finished trial asked for, each mapped onto [0, 1] the way Optuna's
// _SearchSpaceTransform maps it (log scale for `log`; an int's, or a stepped float's, range
// widened by half a step at each end so every value owns a cell of the same width).
// Left out, as Optuna leaves them out: categorical distributions, distributions holding a single
// value, and a name asked for with two different distributions (Optuna's intersection drops a
// parameter whose distribution differs between finished trials; here a name counts as varying
// once any trial asked it differently). Pure value types; not thread-safe.
#pragma once

#include <Eigen/Dense>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/model_searcher.h"
#include "core/status.h"
#include "core/suggested_distribution.h"

namespace tunedeck {

// The distributions trials have asked for, by name, and the names asked with more than one.
class AskedDistributions {
  public:
    void note(const QString& name, const SuggestedDistribution& distribution);
    const std::map<QString, SuggestedDistribution>& byName() const { return byName_; }
    bool varies(const QString& name) const { return varying_.count(name) > 0; }

    QJsonObject toJson() const;
    static Status fromJson(const QJsonObject& json, AskedDistributions* out);

  private:
    std::map<QString, SuggestedDistribution> byName_;  // as first asked
    std::set<QString> varying_;
};

// The parameter names every finished trial holds in its config, kept up as trials finish (the
// list of finished trials only grows), so a proposal costs the names, not the trials.
class CommonNames {
  public:
    // Takes in the trials of `finished` past those already seen.
    void catchUp(const std::vector<Observation>& finished);
    bool holds(const QString& name) const { return seen_ > 0 && names_.count(name) > 0; }

  private:
    std::size_t seen_ = 0;
    std::set<QString> names_;
};

class SuggestedSpace {
  public:
    struct Coordinate {
        QString name;
        SuggestedDistribution distribution;
        bool operator==(const Coordinate& other) const = default;
    };

    SuggestedSpace() = default;
    // The names of `common` whose distribution in `asked` is numeric, holds more than one value
    // and never varied; in name order.
    static SuggestedSpace over(const CommonNames& common, const AskedDistributions& asked);

    int dimensions() const { return int(coordinates_.size()); }
    const std::vector<Coordinate>& coordinates() const { return coordinates_; }
    // The coordinate `name` is, when its distribution is exactly `distribution`.
    std::optional<int> indexOf(const QString& name,
                               const SuggestedDistribution& distribution) const;

    // The value coordinate `index` stands for at `unit` (clamped to [0, 1]), on the
    // distribution's grid.
    QJsonValue valueAt(int index, double unit) const;
    // The point of a finished trial's config: a coordinate it holds no number for (it did not
    // ask) takes the value of `fallback`, the point it was drawn at.
    Eigen::VectorXd encode(const QJsonObject& config, const Eigen::VectorXd& fallback) const;
    // The unit value of `value` on coordinate `index`, nullopt when it is not a number.
    std::optional<double> unitOf(int index, const QJsonValue& value) const;

    QJsonArray toJson() const;
    static Status fromJson(const QJsonArray& json, SuggestedSpace* out);

    bool operator==(const SuggestedSpace& other) const = default;

  private:
    std::vector<Coordinate> coordinates_;
};

}  // namespace tunedeck
