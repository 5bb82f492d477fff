#include "core/gaussian_process.h"

#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>
#include <vector>

namespace tunedeck {

namespace {

// Hyperparameter bounds, in the units the fit sees: inputs in [0, 1]^d, standardised targets.
// A length scale below 1/100 of the box models noise as structure; above 10 a dimension is flat.
constexpr double kMinLengthScale = 1e-2;
constexpr double kMaxLengthScale = 1e1;
// Standardised targets have variance 1; the signal may be a small or a large part of it.
constexpr double kMinSignalVariance = 5e-2;
constexpr double kMaxSignalVariance = 2e1;
// The floor keeps a noise-free fit factorable; at the top everything is noise.
constexpr double kMinNoiseVariance = 1e-6;
constexpr double kMaxNoiseVariance = 1;
constexpr int kMaxIterations = 60;
// The hyperparameter search factors an n x n matrix per step; above this many rows it runs on
// a random subset of them (the posterior still conditions on every row), which keeps a
// suggestion at 500 observations well under a second without moving the fit much.
constexpr int kMaxSearchRows = 200;
// Added to the diagonal, in turn, times the signal variance, when K is not positive definite.
constexpr double kJitters[] = {0, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2};

const double kSqrt5 = std::sqrt(5.0);

// Squared differences of the rows of x along each dimension: the kernel for any length
// scales is a weighted sum of these, so the search computes them once.
std::vector<Eigen::MatrixXd> squaredDifferences(const Eigen::MatrixXd& x) {
    const Eigen::Index n = x.rows();
    std::vector<Eigen::MatrixXd> result;
    result.reserve(std::size_t(x.cols()));
    for (Eigen::Index dim = 0; dim < x.cols(); ++dim) {
        const Eigen::VectorXd column = x.col(dim);
        Eigen::MatrixXd diff = column.replicate(1, n) - column.transpose().replicate(n, 1);
        result.push_back(diff.array().square().matrix());
    }
    return result;
}

// Matérn 5/2 of the scaled distance r, times the signal variance.
double matern52(double r, double signalVariance) {
    return signalVariance * (1 + kSqrt5 * r + 5.0 / 3.0 * r * r) * std::exp(-kSqrt5 * r);
}

// Factors K = signal + (noise + jitter) I, trying larger jitters when K is not positive
// definite. False when even the largest fails.
bool factor(const Eigen::MatrixXd& signal, double noise, double signalVariance,
            Eigen::LLT<Eigen::MatrixXd>* llt) {
    for (const double jitter : kJitters) {
        Eigen::MatrixXd k = signal;
        k.diagonal().array() += noise + jitter * signalVariance;
        llt->compute(k);
        if (llt->info() == Eigen::Success) {
            return true;
        }
    }
    return false;
}

double logMarginalLikelihoodOf(const std::vector<Eigen::MatrixXd>& squared,
                               const Eigen::VectorXd& y, const GpHyperparameters& h,
                               Eigen::VectorXd* gradient) {
    const Eigen::Index n = y.size();
    const Eigen::Index d = Eigen::Index(squared.size());
    Eigen::ArrayXXd r2 = Eigen::ArrayXXd::Zero(n, n);
    for (Eigen::Index dim = 0; dim < d; ++dim) {
        r2 += squared[std::size_t(dim)].array() / (h.lengthScales[dim] * h.lengthScales[dim]);
    }
    const Eigen::ArrayXXd r = r2.sqrt();
    const Eigen::ArrayXXd decay = (-kSqrt5 * r).exp();
    const Eigen::MatrixXd signal =
        (h.signalVariance * (1 + kSqrt5 * r + 5.0 / 3.0 * r2) * decay).matrix();

    Eigen::LLT<Eigen::MatrixXd> llt;
    if (!factor(signal, h.noiseVariance, h.signalVariance, &llt)) {
        return -std::numeric_limits<double>::infinity();
    }
    const Eigen::VectorXd alpha = llt.solve(y);
    const Eigen::MatrixXd& lower = llt.matrixLLT();
    const double logDet = 2 * lower.diagonal().array().log().sum();
    const double value =
        -0.5 * y.dot(alpha) - 0.5 * logDet - 0.5 * double(n) * std::log(2 * std::numbers::pi);
    if (gradient) {
        // d value / d theta = 1/2 tr((alpha alpha^T - K^-1) dK/dtheta).
        const Eigen::MatrixXd inverse = llt.solve(Eigen::MatrixXd::Identity(n, n));
        const Eigen::ArrayXXd w = (alpha * alpha.transpose() - inverse).array();
        // dk/d(log l_i) = s (5/3) (1 + sqrt5 r) exp(-sqrt5 r) (x_i - x'_i)^2 / l_i^2.
        const Eigen::ArrayXXd common =
            w * (h.signalVariance * 5.0 / 3.0 * (1 + kSqrt5 * r) * decay);
        gradient->resize(d + 2);
        for (Eigen::Index dim = 0; dim < d; ++dim) {
            (*gradient)[dim] = 0.5 * (common * squared[std::size_t(dim)].array()).sum() /
                               (h.lengthScales[dim] * h.lengthScales[dim]);
        }
        (*gradient)[d] = 0.5 * (w * signal.array()).sum();
        (*gradient)[d + 1] = 0.5 * h.noiseVariance * w.matrix().trace();
    }
    return value;
}

using BoxObjective = std::function<double(const Eigen::VectorXd&, Eigen::VectorXd*)>;

// Minimises `f` (value and gradient) over the box [lower, upper] from *x: BFGS on the
// variables that are not held at a bound by their gradient, with a backtracking line search
// along the projected path (the L-BFGS-B idea with a dense inverse Hessian, which is cheap at
// the handful of variables a GP has). Eigen's NonLinearOptimization only solves equations and
// unbounded least squares, hence this. Returns the value at the final *x.
double minimiseInBox(const BoxObjective& f, Eigen::VectorXd* x, const Eigen::VectorXd& lower,
                     const Eigen::VectorXd& upper, int maxIterations) {
    const Eigen::Index m = x->size();
    const auto project = [&](const Eigen::VectorXd& v) -> Eigen::VectorXd {
        return v.cwiseMax(lower).cwiseMin(upper);
    };
    const auto evaluate = [&](const Eigen::VectorXd& at, Eigen::VectorXd* g) {
        const double value = f(at, g);
        return std::isfinite(value) && g->allFinite() ? value
                                                      : std::numeric_limits<double>::infinity();
    };
    *x = project(*x);
    Eigen::VectorXd g;
    double fx = evaluate(*x, &g);
    if (!std::isfinite(fx)) {
        return fx;
    }
    // The Hessian itself rather than its inverse: the step on the free variables solves their
    // block of it, which stays right when the set of variables held at a bound changes.
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Identity(m, m);
    bool scaled = false;            // the first curvature pair sets the scale of the identity
    constexpr double kMaxStep = 2;  // per variable, in the units of x
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
        std::vector<Eigen::Index> free;
        for (Eigen::Index i = 0; i < m; ++i) {
            const bool heldLow = (*x)[i] <= lower[i] + 1e-9 && g[i] > 0;
            const bool heldHigh = (*x)[i] >= upper[i] - 1e-9 && g[i] < 0;
            if (!heldLow && !heldHigh) {
                free.push_back(i);
            }
        }
        if (free.empty() || g(free).lpNorm<Eigen::Infinity>() < 1e-5 * (1 + std::abs(fx))) {
            break;
        }
        Eigen::VectorXd direction = Eigen::VectorXd::Zero(m);
        const Eigen::MatrixXd block = hessian(free, free);
        const Eigen::VectorXd freeGradient = g(free);
        const Eigen::VectorXd freeStep = block.ldlt().solve(-freeGradient);
        direction(free) = freeStep;
        if (!direction.allFinite() || direction.dot(g) >= 0) {
            hessian.setIdentity();
            scaled = false;
            direction.setZero();
            direction(free) = -g(free);
        }
        double step = std::min(1.0, kMaxStep / direction.lpNorm<Eigen::Infinity>());
        Eigen::VectorXd next;
        Eigen::VectorXd nextGradient;
        double fNext = std::numeric_limits<double>::infinity();
        bool accepted = false;
        for (int shrink = 0; shrink < 20; ++shrink, step *= 0.3) {
            next = project(*x + step * direction);
            fNext = evaluate(next, &nextGradient);
            if (fNext <= fx + 1e-4 * g.dot(next - *x)) {
                accepted = true;
                break;
            }
        }
        if (!accepted) {
            if (!scaled) {
                break;
            }
            hessian.setIdentity();
            scaled = false;
            continue;
        }
        const Eigen::VectorXd s = next - *x;
        const Eigen::VectorXd y = nextGradient - g;
        const double sy = s.dot(y);
        if (sy > 1e-10 * s.norm() * y.norm()) {
            if (!scaled) {
                hessian *= y.squaredNorm() / sy;
                scaled = true;
            }
            const Eigen::VectorXd bs = hessian * s;
            hessian += y * y.transpose() / sy - bs * bs.transpose() / s.dot(bs);
        }
        const double decrease = fx - fNext;
        *x = next;
        g = nextGradient;
        fx = fNext;
        if (decrease < 1e-9 * (1 + std::abs(fx))) {
            break;
        }
    }
    return fx;
}

// theta = (log l_1..l_d, log signal variance, log noise variance).
Eigen::VectorXd toTheta(const GpHyperparameters& h) {
    const Eigen::Index d = h.lengthScales.size();
    Eigen::VectorXd theta(d + 2);
    theta.head(d) = h.lengthScales.array().log();
    theta[d] = std::log(h.signalVariance);
    theta[d + 1] = std::log(h.noiseVariance);
    return theta;
}

GpHyperparameters fromTheta(const Eigen::VectorXd& theta) {
    const Eigen::Index d = theta.size() - 2;
    GpHyperparameters h;
    h.lengthScales = theta.head(d).array().exp();
    h.signalVariance = std::exp(theta[d]);
    h.noiseVariance = std::exp(theta[d + 1]);
    return h;
}

// The maximum-likelihood hyperparameters for standardised `y`, from the starts asked for.
GpHyperparameters searchHyperparameters(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                        Rng& rng, const GpSearchStarts& starts) {
    const Eigen::Index d = x.cols();
    const std::vector<Eigen::MatrixXd> squared = squaredDifferences(x);
    Eigen::VectorXd lower(d + 2);
    Eigen::VectorXd upper(d + 2);
    lower.head(d).setConstant(std::log(kMinLengthScale));
    upper.head(d).setConstant(std::log(kMaxLengthScale));
    lower[d] = std::log(kMinSignalVariance);
    upper[d] = std::log(kMaxSignalVariance);
    lower[d + 1] = std::log(kMinNoiseVariance);
    upper[d + 1] = std::log(kMaxNoiseVariance);
    const BoxObjective negativeLikelihood = [&](const Eigen::VectorXd& theta,
                                                Eigen::VectorXd* gradient) {
        const double value = logMarginalLikelihoodOf(squared, y, fromTheta(theta), gradient);
        *gradient = -*gradient;
        return -value;
    };

    GpHyperparameters defaults;
    defaults.lengthScales = Eigen::VectorXd::Constant(d, 0.5);
    defaults.signalVariance = 1;
    defaults.noiseVariance = 1e-4;
    Eigen::VectorXd best = toTheta(defaults);
    double bestValue = std::numeric_limits<double>::infinity();
    const auto searchFrom = [&](Eigen::VectorXd theta) {
        theta = theta.cwiseMax(lower).cwiseMin(upper);
        const double value =
            minimiseInBox(negativeLikelihood, &theta, lower, upper, kMaxIterations);
        if (value < bestValue) {
            bestValue = value;
            best = theta;
        }
    };
    const bool warm = starts.previous && starts.previous->lengthScales.size() == d;
    if (warm) {
        searchFrom(toTheta(*starts.previous));
    }
    if (!warm || starts.randomRestarts > 0) {
        searchFrom(toTheta(defaults));
    }
    for (int attempt = 0; attempt < starts.randomRestarts; ++attempt) {
        // Random starts stay in the plausible middle of the box; the search may leave it.
        Eigen::VectorXd theta(d + 2);
        for (Eigen::Index i = 0; i < d; ++i) {
            theta[i] = rng.uniform(std::log(0.05), std::log(2.0));
        }
        theta[d] = rng.uniform(std::log(0.3), std::log(3.0));
        theta[d + 1] = rng.uniform(std::log(1e-6), std::log(0.1));
        searchFrom(theta);
    }
    return fromTheta(best);
}

double normalPdf(double z) {
    return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
}

double normalCdf(double z) {
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

}  // namespace

QJsonObject GpHyperparameters::toJson() const {
    QJsonArray scales;
    for (const double scale : lengthScales) {
        scales.append(scale);
    }
    return {{QStringLiteral("length_scales"), scales},
            {QStringLiteral("signal_variance"), signalVariance},
            {QStringLiteral("noise_variance"), noiseVariance}};
}

std::optional<GpHyperparameters> GpHyperparameters::fromJson(const QJsonObject& json) {
    const auto positive = [](const QJsonValue& v) {
        return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() > 0;
    };
    const QJsonArray scales = json.value(QStringLiteral("length_scales")).toArray();
    const QJsonValue signal = json.value(QStringLiteral("signal_variance"));
    const QJsonValue noise = json.value(QStringLiteral("noise_variance"));
    if (scales.isEmpty() || !positive(signal) || !positive(noise) ||
        !std::all_of(scales.begin(), scales.end(), positive)) {
        return std::nullopt;
    }
    GpHyperparameters h;
    h.lengthScales.resize(scales.size());
    for (qsizetype i = 0; i < scales.size(); ++i) {
        h.lengthScales[i] = scales[i].toDouble();
    }
    h.signalVariance = signal.toDouble();
    h.noiseVariance = noise.toDouble();
    return h;
}

double GaussianProcess::logMarginalLikelihood(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                              const GpHyperparameters& hyperparameters,
                                              Eigen::VectorXd* gradient) {
    return logMarginalLikelihoodOf(squaredDifferences(x), y, hyperparameters, gradient);
}

void GaussianProcess::fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, Rng& rng,
                          const GpSearchStarts& starts) {
    if (x.rows() == 0) {
        fitted_ = false;
        return;
    }
    const double mean = y.mean();
    const double sd =
        y.size() > 1 ? std::sqrt((y.array() - mean).square().sum() / double(y.size() - 1)) : 0;
    const Eigen::VectorXd standardised = (y.array() - mean) / (sd > 1e-12 ? sd : 1.0);
    GpHyperparameters found;
    if (x.rows() <= kMaxSearchRows) {
        found = searchHyperparameters(x, standardised, rng, starts);
    } else {
        std::vector<Eigen::Index> rows(std::size_t(x.rows()));
        std::iota(rows.begin(), rows.end(), 0);
        for (int i = 0; i < kMaxSearchRows; ++i) {
            const auto pick = rng.integer(i, std::int64_t(rows.size()));
            std::swap(rows[std::size_t(i)], rows[std::size_t(pick)]);
        }
        rows.resize(kMaxSearchRows);
        found = searchHyperparameters(x(rows, Eigen::all), standardised(rows), rng, starts);
    }
    fit(x, y, found);
}

void GaussianProcess::fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                          const GpHyperparameters& hyperparameters) {
    fitted_ = false;
    if (x.rows() == 0) {
        return;
    }
    x_ = x;
    hyper_ = hyperparameters;
    yMean_ = y.mean();
    const double sd =
        y.size() > 1 ? std::sqrt((y.array() - yMean_).square().sum() / double(y.size() - 1)) : 0;
    yScale_ = sd > 1e-12 ? sd : 1.0;
    const Eigen::VectorXd standardised = (y.array() - yMean_) / yScale_;

    const Eigen::Index n = x.rows();
    Eigen::MatrixXd signal(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = 0; j <= i; ++j) {
            const double r =
                ((x.row(i) - x.row(j)).transpose().array() / hyper_.lengthScales.array())
                    .matrix()
                    .norm();
            signal(i, j) = signal(j, i) = matern52(r, hyper_.signalVariance);
        }
    }
    if (!factor(signal, hyper_.noiseVariance, hyper_.signalVariance, &llt_)) {
        // Only a matrix with non-finite entries gets here; treat it as everything being noise.
        hyper_.noiseVariance = kMaxNoiseVariance;
        factor(signal, hyper_.noiseVariance, hyper_.signalVariance, &llt_);
    }
    alpha_ = llt_.solve(standardised);
    fitted_ = true;
}

void GaussianProcess::predict(const Eigen::VectorXd& point, double* mean, double* variance) const {
    if (!fitted_) {
        // The prior of a model that has seen nothing: zero mean, unit variance.
        *mean = 0;
        *variance = 1;
        return;
    }
    const Eigen::ArrayXd inverseScales = hyper_.lengthScales.array().inverse();
    Eigen::VectorXd k(x_.rows());
    for (Eigen::Index i = 0; i < x_.rows(); ++i) {
        const double r = ((x_.row(i).transpose() - point).array() * inverseScales).matrix().norm();
        k[i] = matern52(r, hyper_.signalVariance);
    }
    const Eigen::VectorXd v = llt_.matrixL().solve(k);
    const double latent = std::max(hyper_.signalVariance - v.squaredNorm(), 0.0);
    *mean = yMean_ + yScale_ * k.dot(alpha_);
    *variance = latent * yScale_ * yScale_;
}

double GaussianProcess::expectedImprovement(const Eigen::VectorXd& point, double best,
                                            double xi) const {
    double mean = 0;
    double variance = 0;
    predict(point, &mean, &variance);
    const double improvement = best - xi - mean;
    const double sd = std::sqrt(variance);
    if (sd < 1e-12 * yScale_) {
        return std::max(improvement, 0.0);
    }
    const double z = improvement / sd;
    return improvement * normalCdf(z) + sd * normalPdf(z);
}

double GaussianProcess::upperConfidenceBound(const Eigen::VectorXd& point, double beta) const {
    double mean = 0;
    double variance = 0;
    predict(point, &mean, &variance);
    return mean + std::sqrt(std::max(beta, 0.0)) * std::sqrt(variance);
}

}  // namespace tunedeck
