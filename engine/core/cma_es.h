// One CMA-ES run in the unit cube (the cmaes package's CMA class, Hansen's tutorial), the model
// behind core/cmaes_searcher.h. A plain value type: not thread-safe; copies are independent.
#pragma once

#include <Eigen/Dense>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <optional>
#include <vector>

#include "core/rng.h"

namespace tunedeck {

// One CMA-ES run in [0, 1]^d: the search distribution N(mean, sigma^2 C), its evolution paths
// and its update (the cmaes package's CMA class, ask and tell).
class CmaEs {
  public:
    // What the package derives from d and the population size (Hansen's tutorial, eq. 48-56).
    struct Constants {
        int dimensions = 0;
        int popsize = 0;
        int mu = 0;  // parents: popsize / 2
        double muEff = 0;
        double cc = 0;  // cumulation for the rank-one update
        double c1 = 0;
        double cmu = 0;
        double cSigma = 0;  // cumulation for step-size control
        double dSigma = 0;
        double cm = 1;
        double chiN = 0;          // E||N(0, I)||
        int funhistTerm = 0;      // generations of best/worst values should_stop() looks back on
        Eigen::VectorXd weights;  // popsize recombination weights, the last ones negative
    };
    struct Solution {
        Eigen::VectorXd x;
        double value = 0;  // lower is better
    };

    // Below this the population has a single parent and the rank-mu rate is zero (the package
    // then divides by it).
    static constexpr int kMinPopsize = 4;

    static int defaultPopsize(int dimensions);  // 4 + floor(3 ln d)
    static Constants constantsFor(int dimensions, int popsize);

    // `mean` inside [0, 1]^d; sigma > 0; popsize >= kMinPopsize.
    CmaEs(Eigen::VectorXd mean, double sigma, int popsize);

    const Constants& constants() const { return k_; }
    int dimensions() const { return k_.dimensions; }
    int popsize() const { return k_.popsize; }
    int generation() const { return generation_; }
    const Eigen::VectorXd& mean() const { return mean_; }
    double sigma() const { return sigma_; }
    const Eigen::MatrixXd& covariance() const { return c_; }
    const Eigen::VectorXd& pathC() const { return pc_; }
    const Eigen::VectorXd& pathSigma() const { return pSigma_; }

    // One point of N(mean, sigma^2 C) inside the cube (redrawn, then clipped).
    Eigen::VectorXd ask(Rng& rng) const;
    // Exactly popsize() solutions; moves the distribution and starts the next generation.
    void tell(std::vector<Solution> solutions);
    // The package's termination tests (flat values, tiny or exploding steps, no effect on the
    // mean, ill-conditioned C); ipop restarts when this holds.
    bool shouldStop() const;

    QJsonObject toJson() const;
    static std::optional<CmaEs> fromJson(const QJsonObject& json);

  private:
    void decompose();  // B, D from C; C rebuilt from them, as the package does
    Eigen::VectorXd sample(Rng& rng) const;

    Constants k_;
    double sigma0_ = 0;  // the tolerance on x is relative to it
    int generation_ = 0;
    Eigen::VectorXd mean_;
    double sigma_ = 0;
    Eigen::MatrixXd c_;
    Eigen::MatrixXd b_;  // eigenvectors of C, in columns
    Eigen::VectorXd d_;  // square roots of its eigenvalues
    Eigen::VectorXd pc_;
    Eigen::VectorXd pSigma_;
    Eigen::VectorXd funhist_;  // best and worst value of the last funhistTerm generations
};

// Saved CMA-ES state keeps a matrix as one JSON array, column by column (Eigen's order). Null when
// the value is not an array of rows * cols numbers.
QJsonArray matrixToJson(const Eigen::MatrixXd& m);
std::optional<Eigen::MatrixXd> matrixFromJson(const QJsonValue& value, Eigen::Index rows,
                                              Eigen::Index cols = 1);

}  // namespace tunedeck
