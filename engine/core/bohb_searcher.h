// BOHB (`search: {algorithm: bohb}` with `scheduler: {type: hyperband}`): kernel density models
// of good and bad configs at a hyperband budget choose the configs hyperband's brackets start.
// A model behind core/model_searcher.h; not thread-safe (the runtime's event loop only).
//
// Paper: Falkner et al., 2018, "BOHB: Robust and Efficient Hyperparameter Optimization at
// Scale" (ICML), https://arxiv.org/abs/1807.01774. Anchors: HpBandSter's CG_BOHB config
// generator (hpbandster/optimizers/config_generators/bohb.py), whose option names and defaults
// these are, and Ray Tune's TuneBOHB, which pairs it with Ray's hyperband as we do:
//  - Budgets are the milestones of the hyperband scheduler (its max_t and reduction_factor:
//    1, 3, 9, 27, 81 by default). A trial's loss at budget b is its first result at or past b
//    on its curve (ModelSearcher::curves(), recorded against the scheduler's time_attr), so
//    running, paused, stopped and finished trials all count at every budget they reached.
//  - The model is fitted on the largest budget where HpBandSter would fit one: at least
//    min_points_in_model observations (default and minimum d + 1, d the modelled parameters),
//    good = the best max(min_points_in_model, floor(top_n_percent% of n)) (15), bad = the next
//    max(min_points_in_model, floor((100 - top_n_percent)% of n)), and each set more than d
//    configs. Until then every proposal is random (SearchSpace::sample).
//  - A model is two product kernel densities, as statsmodels' KDEMultivariate with
//    normal-reference bandwidths 1.06 * sd * n^(-1/(d + 4)), each at least min_bandwidth
//    (1e-3): numeric parameters are Gaussian kernels in the unit cube (core/unit_cube.h: log
//    kinds in log space, normals over mu -/+ 3 sigma), choice and grid parameters
//    Aitchison-Aitken kernels over their option index. Unlike statsmodels, the kernel counts
//    the levels the parameter has rather than those seen in the data, which divides by zero
//    when every observed config shares one level; the bandwidth of a categorical is capped at
//    1 so no kernel value goes negative.
//  - A proposal is random with probability random_fraction (1/3); otherwise num_samples (64)
//    candidates are drawn around random good configs (numeric: truncated normal with the good
//    bandwidth times bandwidth_factor (3); categorical: kept with probability 1 - bandwidth,
//    else uniform), and the one with the smallest g(x) / l(x) is proposed.
//  - Parameters that are conditional (`when`, inside choice options) or choices whose options
//    are groups are not modelled: SearchSpace::sample draws them around the modelled values.
//  - One objective only: the model ranks losses, and hyperband judges one metric.
// Every draw comes from the proposal's own Rng stream, so a restored searcher proposes the same;
// the model is rebuilt from the recorded curves, so it needs no state of its own.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/model_searcher.h"
#include "core/status.h"
#include "core/unit_cube.h"

namespace tunedeck {

// The `search:` option keys bohb takes, for the catalogue's unknown-option check.
QStringList bohbOptionNames();
// Option types and ranges, the hyperband scheduler, one metric; on failure *badKey names the
// key ("search.<option>", "search.algorithm", "metric").
Status validateBohbOptions(const ExperimentSpec& spec, QString* badKey);
// Requires a spec that passed validateBohbOptions.
std::unique_ptr<Searcher> makeBohbSearcher(const ExperimentSpec& spec);

class BohbSearcher final : public ModelSearcher {
  public:
    struct Options {
        std::optional<int> minPointsInModel;  // default (and at least) d + 1
        double topNPercent = 15;
        int numSamples = 64;
        double randomFraction = 1.0 / 3.0;
        double bandwidthFactor = 3;
        double minBandwidth = 1e-3;
    };

    BohbSearcher(const ExperimentSpec& spec, Options options);

    // The budget the next model-based proposal would be fitted on, or nullopt while there is
    // not enough data at any budget (proposals are random).
    std::optional<double> modelBudget() const;
    // Parameters modelled (d) and the observations a model needs at least.
    int modelledParameters() const {
        return static_cast<int>(categoricals_.size()) + cube_.dimensions();
    }
    int minPointsInModel() const { return minPoints_; }

  protected:
    Suggestion propose(const QString& trialId, Rng& rng) override;

  private:
    struct Categorical {
        QString path;
        std::vector<QJsonValue> levels;
    };
    struct Sample {
        std::vector<double> point;  // unit-cube coordinates, then categorical level indices
        double loss = 0;
    };
    struct Model;

    std::optional<std::vector<double>> encode(const QJsonObject& config) const;
    QJsonObject decode(const std::vector<double>& point) const;
    // The observations at each budget, budgets ascending.
    std::vector<std::vector<Sample>> samplesByBudget() const;
    std::optional<Model> fit(const std::vector<Sample>& samples) const;
    std::optional<Model> bestModel(double* budget) const;
    QJsonObject randomConfig(Rng& rng) const;

    Options options_;
    UnitCube cube_;
    std::vector<Categorical> categoricals_;
    std::vector<double> budgets_;
    int minPoints_ = 1;
};

}  // namespace tunedeck
