// Gaussian-process regression for the model-based searchers (bayesopt, pb2): a Matérn 5/2
// kernel with one length scale per input (ARD), a signal variance and a noise variance, fitted
// by maximising the log marginal likelihood, and the expected-improvement and UCB acquisition
// functions. Inputs are expected scaled to [0, 1]^d and targets are standardised inside fit().
// Linear algebra is Eigen's (Cholesky via LLT). Pure value type; not thread-safe.
#pragma once

#include <Eigen/Dense>
#include <QJsonObject>
#include <cstdint>
#include <optional>

#include "core/rng.h"

namespace tunedeck {

struct GpHyperparameters {
    Eigen::VectorXd lengthScales;  // one per input dimension
    double signalVariance = 1;
    double noiseVariance = 1e-6;

    // For a searcher's saved state; nullopt when `json` is not one (positive, finite values).
    QJsonObject toJson() const;
    static std::optional<GpHyperparameters> fromJson(const QJsonObject& json);
};

// Where the maximum-likelihood search for the hyperparameters starts.
struct GpSearchStarts {
    // A previous fit's hyperparameters, searched from first: a model refitted after one more
    // observation rarely moves far, so one local search from there usually finds the optimum.
    const GpHyperparameters* previous = nullptr;
    // Also search from the default start and from this many random ones (the likelihood of a
    // few dozen points often has a short- and a long-length-scale mode). Without `previous`
    // the default start is always searched.
    int randomRestarts = 3;
};

class GaussianProcess {
  public:
    // Fits to rows of `x` (n x d, in [0, 1]) and `y` (n). `rng` drives the random restarts
    // of the hyperparameter search, so a fit is reproducible for a given stream.
    void fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, Rng& rng,
             const GpSearchStarts& starts = {});
    // The same with the hyperparameters given (no search): adds the kriging believer's fake
    // observations to a fitted model without moving its length scales.
    void fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
             const GpHyperparameters& hyperparameters);

    // Posterior mean and variance at `point` (d), in the units of y.
    void predict(const Eigen::VectorXd& point, double* mean, double* variance) const;

    // Expected improvement below `best` (minimisation), with exploration margin `xi`.
    double expectedImprovement(const Eigen::VectorXd& point, double best, double xi = 0) const;
    // Upper confidence bound mean + sqrt(beta) * sd (maximisation, as GP-UCB / pb2).
    double upperConfidenceBound(const Eigen::VectorXd& point, double beta) const;

    // Log marginal likelihood of `y` (taken as given, not standardised) at `x`, and when
    // `gradient` is set its gradient with respect to (log length scales..., log signal
    // variance, log noise variance); -infinity when the kernel matrix cannot be factored.
    static double logMarginalLikelihood(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                        const GpHyperparameters& hyperparameters,
                                        Eigen::VectorXd* gradient = nullptr);

    const GpHyperparameters& hyperparameters() const { return hyper_; }
    bool isFitted() const { return fitted_; }
    int dimensions() const { return int(x_.cols()); }

  private:
    GpHyperparameters hyper_;
    Eigen::MatrixXd x_;
    Eigen::VectorXd alpha_;            // K^-1 (y - mean), standardised
    Eigen::LLT<Eigen::MatrixXd> llt_;  // of K + noise I
    double yMean_ = 0;
    double yScale_ = 1;
    bool fitted_ = false;
};

}  // namespace tunedeck
