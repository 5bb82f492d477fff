// The Parzen estimators of the tpe searcher: mixtures with one component per observed value plus
// a prior, as Optuna 3.1's _ParzenEstimator (optuna/samplers/_tpe/parzen_estimator.py), whose
// numbers these reproduce. Value type; not thread-safe (fit() reuses scratch buffers).
//
// Values live in the model space Optuna calls the "internal representation": log kinds in log
// space, integers and q kinds as numbers whose probability is the mass of [x - q/2, x + q/2]
// inside the q-extended bounds, categoricals as option indices. axisOf / toModel / fromDraw map
// one domain's values to and from it; the estimators know nothing of configs.
//
// Numbers match Optuna's: component weights (the weights function, then the prior's, normalised),
// bandwidths from the distance to the neighbours sorted together with the prior's centre, the
// magic clip to [range / min(100, 1 + components), range], a prior N(centre, range), and
// categorical rows prior_weight / (n + 1) plus one for the observed option, normalised. Sampling
// draws a component by weight, then its truncated normal by the inverse CDF (Optuna's _truncnorm)
// or its categorical row; only the random source differs (ours is Rng, not numpy's). As in 3.1,
// a continuous component's density leaves out its 1/sigma (3.1's _truncnorm.logpdf does; later
// Optuna versions put it back). It is kept out on purpose: on the benchmark of
// tests/bench/search it finds better configs (Branin, 50 evaluations, median of 20 seeds: 0.62
// without 1/sigma, 0.91 with it), because broad components, the prior's above all, then keep
// more weight and the search keeps exploring. One departure: tied centres are ordered by
// index (a stable sort) when bandwidths are computed, where 3.1's quicksort leaves ties in
// no particular order.
//
// Speed: with one numeric axis (independent TPE), logPdf() keeps the components sorted by
// centre, merges those with equal centre and bandwidth, and sums only those within reach of the
// point; every component left out is provably below 2^-53 of the largest term, so the result is
// the full sum to double precision. Exp runs as a vectorisable polynomial.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "core/search_space.h"

namespace tunedeck::tpe {

// One modelled parameter as the estimator sees it.
struct Axis {
    enum class Kind {
        Continuous,   // density of a truncated Gaussian mixture on [low, high]
        Discrete,     // mass of [x - step/2, x + step/2] within [low, high]
        Categorical,  // option index 0 .. categories-1
    };
    Kind kind = Kind::Continuous;
    double low = 0;  // bounds in model space (numeric kinds)
    double high = 1;
    double step = 0;     // Discrete only
    int categories = 0;  // Categorical only
    // The prior component; Optuna's is centred on the range with sigma = high - low. A normal
    // domain sets its own mu and sigma here so the prior is the distribution the user wrote.
    bool customPrior = false;
    double priorMu = 0;
    double priorSigma = 1;
};

struct EstimatorOptions {
    bool considerPrior = true;
    double priorWeight = 1.0;
    bool considerMagicClip = true;
    bool considerEndpoints = false;
    // Multivariate TPE (Falkner et al. 2018, as Optuna): every component gets the bandwidth
    // 0.2 * n^(-1 / (d + 4)) * range (Scott's rule), and components are shared across axes.
    bool multivariate = false;
};

// How `domain` is modelled (see tpe_searcher.h for the choices made for each kind).
Axis axisOf(const Domain& domain);
// A value of `domain` (an option index for choice and grid) in model space. Values outside the
// domain (points_to_evaluate may hold any) are clamped in, where they still mean "this end".
double toModel(const Domain& domain, const Axis& axis, double value);
// The value of `domain` that a draw from an estimator on axisOf(domain) stands for.
double fromDraw(const Domain& domain, double draw);

// Optuna's default_weights(n): 1 for the newest 25 observations, a linear ramp from 1/n up to 1
// for the older ones (oldest first). Writes n values into `out`.
void defaultWeights(std::size_t n, std::vector<double>& out);

class ParzenEstimator {
  public:
    // Fits the mixture to `n` observations of `axes` (row-major, n x axes.size(), every value
    // present and inside the bounds) with unnormalised weights `weights` (n values, oldest
    // first). The axes are copied. Reuses its buffers: no allocation once they are large enough.
    // `sorted` (one axis only, optional) lists the observations by increasing value, ties by
    // index, for a caller that keeps them sorted; without it fit() sorts them itself.
    void fit(std::span<const Axis> axes, std::span<const double> points, std::size_t n,
             std::span<const double> weights, const EstimatorOptions& options,
             std::span<const std::size_t> sorted = {});

    std::size_t dimensions() const { return axes_.size(); }
    // Observations plus the prior (last) when it is considered.
    std::size_t components() const { return weights_.size(); }
    // Normalised component weights (Optuna's _weights).
    std::span<const double> weights() const { return weights_; }
    // Centres and bandwidths of a numeric axis, one per component (Optuna's _mus, _sigmas).
    std::span<const double> mus(std::size_t axis) const;
    std::span<const double> sigmas(std::size_t axis) const;
    // Row `component` of a categorical axis at `category` (Optuna's _categorical_weights).
    double categoricalWeight(std::size_t axis, std::size_t component, int category) const;

    // One point drawn from the mixture, in model space (numeric values not yet snapped to the
    // values a domain can take; the searcher does that before scoring).
    void sample(Rng& rng, std::span<double> point) const;
    // Log density (mass for discrete and categorical axes) of a point in model space.
    double logPdf(std::span<const double> point) const;

  private:
    struct AxisModel {
        std::vector<double> mu;
        std::vector<double> sigma;
        std::vector<double> invSigma;
        std::vector<double> logMass;  // log of the component's mass inside [low, high]
        // -log(sqrt(2 pi)) - logMass, and for a discrete axis also -log(sigma) (its cell-mass
        // bound); not for one continuous axis, where base_ holds it.
        std::vector<double> density;
        std::vector<int> observed;     // categorical: the observed option, -1 for the prior
        double logHit = 0;             // categorical: log row weight of the observed option
        double logMiss = 0;            // ... of any other option
        std::vector<double> marginal;  // categorical: log probability of each option
    };

    void fitNumeric(std::size_t axis, std::span<const double> points, std::size_t n,
                    std::span<const std::size_t> sorted);
    void fitCategorical(std::size_t axis, std::span<const double> points, std::size_t n);
    double sampleNumeric(const Axis& axis, const AxisModel& model, std::size_t component,
                         Rng& rng) const;
    double logPdfOneAxis(double x) const;
    void buildWindow();
    // Adds axis j's log term at x to every component in scratch_ (an upper bound for discrete
    // axes); componentLogPdf is one component's exact log term over all axes.
    void addLogTerms(std::size_t j, double x) const;
    double componentLogPdf(std::size_t k, std::span<const double> point) const;

    std::vector<Axis> axes_;
    std::vector<AxisModel> models_;
    EstimatorOptions options_;
    bool hasPrior_ = true;
    bool oneContinuous_ = false;  // one continuous axis: only base_, no logWeights_ or density
    std::size_t observations_ = 0;
    std::vector<double> weights_;
    std::vector<double> logWeights_;
    std::vector<double> cumulative_;  // running sum of weights_, for drawing a component
    // Per component: log weight plus the parts of the log density of continuous axes that do
    // not depend on the point, so logPdf adds only the quadratic terms.
    std::vector<double> base_;
    // Scratch: (centre, component), sorted; ties keep component order, the oldest first.
    std::vector<std::pair<double, std::size_t>> order_;
    // A single numeric axis's components sorted by centre, for logPdfOneAxis.
    struct Window {
        std::vector<double> mu;
        std::vector<double> inv;
        std::vector<double> bound;      // the largest log term the entry can give
        std::vector<double> logWeight;  // discrete only
        std::vector<double> logMass;    // discrete only
        std::vector<std::size_t> wide;  // components left out of the sorted arrays
        double sigma = 0;               // the largest sigma in the sorted arrays
        double maxBound = 0;
    };
    Window window_;
    std::vector<double> widths_;           // scratch for the median sigma
    mutable std::vector<double> scratch_;  // per-component log terms of one logPdf call
};

}  // namespace tunedeck::tpe
