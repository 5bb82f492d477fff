#include "core/cma_es.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <utility>

namespace tunedeck {

namespace {

// The cmaes package's numerical guards, with its values.
constexpr double kEigenFloor = 1e-8;   // replaces a negative eigenvalue of C (_EPS)
constexpr double kSigmaMax = 1e32;     // step sizes beyond this are numerical blow-up
constexpr double kCmuMargin = 1e-8;    // keeps c1 + c_mu below 1 for large populations
constexpr double kNormFloor = 1e-8;    // guards the negative weights' normalisation
constexpr double kTolXFactor = 1e-12;  // should_stop: steps below this times sigma0
constexpr double kTolXUp = 1e4;        // should_stop: steps above this diverge
constexpr double kTolFun = 1e-12;      // should_stop: values flatter than this
constexpr double kTolConditionCov = 1e14;
// Optuna passes n_max_resampling = 10 * d.
constexpr int kResamplesPerDimension = 10;

}  // namespace

QJsonArray matrixToJson(const Eigen::MatrixXd& m) {
    QJsonArray out;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        out.append(m.data()[i]);
    }
    return out;
}

std::optional<Eigen::MatrixXd> matrixFromJson(const QJsonValue& value, Eigen::Index rows,
                                              Eigen::Index cols) {
    const QJsonArray array = value.toArray();
    if (!value.isArray() || array.size() != rows * cols) {
        return std::nullopt;
    }
    Eigen::MatrixXd out(rows, cols);
    for (Eigen::Index i = 0; i < out.size(); ++i) {
        if (!array[i].isDouble()) {
            return std::nullopt;
        }
        out.data()[i] = array[i].toDouble();
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// CmaEs: cmaes/_cma.py, line for line where it matters for the numbers.

int CmaEs::defaultPopsize(int dimensions) {
    return 4 + static_cast<int>(std::floor(3 * std::log(static_cast<double>(dimensions))));
}

CmaEs::Constants CmaEs::constantsFor(int dimensions, int popsize) {
    Constants k;
    const double n = dimensions;
    k.dimensions = dimensions;
    k.popsize = popsize;
    k.mu = popsize / 2;

    Eigen::VectorXd prime(popsize);  // eq. 49
    for (int i = 0; i < popsize; ++i) {
        prime[i] = std::log((popsize + 1) / 2.0) - std::log(i + 1.0);
    }
    const Eigen::VectorXd head = prime.head(k.mu);
    const Eigen::VectorXd tail = prime.tail(popsize - k.mu);
    k.muEff = head.sum() * head.sum() / head.squaredNorm();
    const double muEffMinus = tail.sum() * tail.sum() / tail.squaredNorm();

    const double alphaCov = 2;
    k.c1 = alphaCov / ((n + 1.3) * (n + 1.3) + k.muEff);
    k.cmu = std::min(1 - k.c1 - kCmuMargin, alphaCov * (k.muEff - 2 + 1 / k.muEff) /
                                                ((n + 2) * (n + 2) + alphaCov * k.muEff / 2));
    const double minAlpha = std::min({1 + k.c1 / k.cmu,                      // eq. 50
                                      1 + (2 * muEffMinus) / (k.muEff + 2),  // eq. 51
                                      (1 - k.c1 - k.cmu) / (n * k.cmu)});    // eq. 52
    double positiveSum = 0;
    double negativeSum = 0;
    for (int i = 0; i < popsize; ++i) {
        (prime[i] > 0 ? positiveSum : negativeSum) += std::abs(prime[i]);
    }
    k.weights.resize(popsize);  // eq. 53
    for (int i = 0; i < popsize; ++i) {
        k.weights[i] =
            prime[i] >= 0 ? 1 / positiveSum * prime[i] : minAlpha / negativeSum * prime[i];
    }
    k.cm = 1;                                      // eq. 54
    k.cSigma = (k.muEff + 2) / (n + k.muEff + 5);  // eq. 55
    k.dSigma = 1 + 2 * std::max(0.0, std::sqrt((k.muEff - 1) / (n + 1)) - 1) + k.cSigma;
    k.cc = (4 + k.muEff / n) / (n + 4 + 2 * k.muEff / n);  // eq. 56
    k.chiN = std::sqrt(n) * (1.0 - (1.0 / (4.0 * n)) + 1.0 / (21.0 * n * n));
    k.funhistTerm = 10 + static_cast<int>(std::ceil(30 * n / popsize));
    return k;
}

CmaEs::CmaEs(Eigen::VectorXd mean, double sigma, int popsize)
    : k_(constantsFor(static_cast<int>(mean.size()), popsize)),
      sigma0_(sigma),
      mean_(std::move(mean)),
      sigma_(sigma),
      c_(Eigen::MatrixXd::Identity(k_.dimensions, k_.dimensions)),
      pc_(Eigen::VectorXd::Zero(k_.dimensions)),
      pSigma_(Eigen::VectorXd::Zero(k_.dimensions)),
      funhist_(Eigen::VectorXd::Zero(2 * k_.funhistTerm)) {
    decompose();
}

void CmaEs::decompose() {
    c_ = (c_ + c_.transpose()) / 2;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(c_);
    b_ = solver.eigenvectors();
    d_ = solver.eigenvalues().unaryExpr([](double v) { return v < 0 ? kEigenFloor : v; });
    d_ = d_.cwiseSqrt();
    c_ = b_ * d_.cwiseAbs2().asDiagonal() * b_.transpose();
}

Eigen::VectorXd CmaEs::sample(Rng& rng) const {
    Eigen::VectorXd z(k_.dimensions);
    for (int i = 0; i < k_.dimensions; ++i) {
        z[i] = rng.normal(0, 1);
    }
    return mean_ + sigma_ * (b_ * d_.asDiagonal() * z);
}

Eigen::VectorXd CmaEs::ask(Rng& rng) const {
    const auto inside = [](const Eigen::VectorXd& x) {
        return (x.array() >= 0).all() && (x.array() <= 1).all();
    };
    for (int i = 0; i < kResamplesPerDimension * k_.dimensions; ++i) {
        Eigen::VectorXd x = sample(rng);
        if (inside(x)) {
            return x;
        }
    }
    return sample(rng).cwiseMax(0.0).cwiseMin(1.0);
}

void CmaEs::tell(std::vector<Solution> solutions) {
    const int n = k_.dimensions;
    const int lambda = k_.popsize;
    ++generation_;
    std::stable_sort(solutions.begin(), solutions.end(),
                     [](const Solution& a, const Solution& b) { return a.value < b.value; });
    const int slot = 2 * (generation_ % k_.funhistTerm);
    funhist_[slot] = solutions.front().value;
    funhist_[slot + 1] = solutions.back().value;

    Eigen::MatrixXd y(n, lambda);  // columns ~ N(0, C)
    for (int i = 0; i < lambda; ++i) {
        y.col(i) = (solutions[static_cast<std::size_t>(i)].x - mean_) / sigma_;
    }
    const Eigen::VectorXd yw = y.leftCols(k_.mu) * k_.weights.head(k_.mu);  // eq. 41
    mean_ += k_.cm * sigma_ * yw;

    // Step-size control.
    const Eigen::MatrixXd cInvSqrt = b_ * d_.cwiseInverse().asDiagonal() * b_.transpose();
    pSigma_ = (1 - k_.cSigma) * pSigma_ +
              std::sqrt(k_.cSigma * (2 - k_.cSigma) * k_.muEff) * (cInvSqrt * yw);
    const double normPSigma = pSigma_.norm();
    sigma_ *= std::exp((k_.cSigma / k_.dSigma) * (normPSigma / k_.chiN - 1));
    sigma_ = std::min(sigma_, kSigmaMax);

    // Covariance adaptation; h_sigma stalls the rank-one path while sigma grows fast (p. 28).
    const double hLeft = normPSigma / std::sqrt(1 - std::pow(1 - k_.cSigma, 2 * (generation_ + 1)));
    const double hRight = (1.4 + 2.0 / (n + 1)) * k_.chiN;
    const double hSigma = hLeft < hRight ? 1.0 : 0.0;
    pc_ = (1 - k_.cc) * pc_ + hSigma * std::sqrt(k_.cc * (2 - k_.cc) * k_.muEff) * yw;  // eq. 45

    Eigen::MatrixXd rankMu = Eigen::MatrixXd::Zero(n, n);  // eq. 46-47
    for (int i = 0; i < lambda; ++i) {
        double w = k_.weights[i];
        if (w < 0) {
            w *= n / ((cInvSqrt * y.col(i)).squaredNorm() + kNormFloor);
        }
        rankMu += w * y.col(i) * y.col(i).transpose();
    }
    const double deltaHSigma = (1 - hSigma) * k_.cc * (2 - k_.cc);
    c_ = (1 + k_.c1 * deltaHSigma - k_.c1 - k_.cmu * k_.weights.sum()) * c_ +
         k_.c1 * pc_ * pc_.transpose() + k_.cmu * rankMu;
    decompose();
}

bool CmaEs::shouldStop() const {
    const Eigen::VectorXd dC = c_.diagonal();
    if (generation_ > k_.funhistTerm && funhist_.maxCoeff() - funhist_.minCoeff() < kTolFun) {
        return true;
    }
    const double tolX = kTolXFactor * sigma0_;
    if (((sigma_ * dC).array() < tolX).all() && ((sigma_ * pc_).array() < tolX).all()) {
        return true;
    }
    if (sigma_ * d_.maxCoeff() > kTolXUp) {
        return true;
    }
    const Eigen::VectorXd coordinateStep = 0.2 * sigma_ * dC.cwiseSqrt();
    if ((mean_.array() == (mean_ + coordinateStep).array()).any()) {
        return true;
    }
    const int axis = generation_ % k_.dimensions;
    const Eigen::VectorXd axisStep = 0.1 * sigma_ * d_[axis] * b_.col(axis);
    if ((mean_.array() == (mean_ + axisStep).array()).all()) {
        return true;
    }
    return d_.maxCoeff() / d_.minCoeff() > kTolConditionCov;
}

QJsonObject CmaEs::toJson() const {
    // B and D are saved rather than recomputed so a resumed run draws bit-identical points.
    return {{QStringLiteral("popsize"), k_.popsize},
            {QStringLiteral("sigma0"), sigma0_},
            {QStringLiteral("generation"), generation_},
            {QStringLiteral("mean"), matrixToJson(mean_)},
            {QStringLiteral("sigma"), sigma_},
            {QStringLiteral("C"), matrixToJson(c_)},
            {QStringLiteral("B"), matrixToJson(b_)},
            {QStringLiteral("D"), matrixToJson(d_)},
            {QStringLiteral("pc"), matrixToJson(pc_)},
            {QStringLiteral("p_sigma"), matrixToJson(pSigma_)},
            {QStringLiteral("funhist"), matrixToJson(funhist_)}};
}

std::optional<CmaEs> CmaEs::fromJson(const QJsonObject& json) {
    const QJsonValue meanValue = json.value(QStringLiteral("mean"));
    const auto mean = matrixFromJson(meanValue, meanValue.toArray().size());
    const int popsize = json.value(QStringLiteral("popsize")).toInt(0);
    const double sigma0 = json.value(QStringLiteral("sigma0")).toDouble(0);
    const double sigma = json.value(QStringLiteral("sigma")).toDouble(0);
    if (!mean || mean->size() < 1 || popsize < kMinPopsize || !(sigma0 > 0) || !(sigma > 0)) {
        return std::nullopt;
    }
    CmaEs cma(*mean, sigma0, popsize);
    const Eigen::Index n = mean->size();
    bool complete = true;
    const auto read = [&](const char* key, auto& target, Eigen::Index rows, Eigen::Index cols) {
        const auto value = matrixFromJson(json.value(QLatin1String(key)), rows, cols);
        complete = complete && value;
        if (value) {
            target = *value;
        }
    };
    read("C", cma.c_, n, n);
    read("B", cma.b_, n, n);
    read("D", cma.d_, n, 1);
    read("pc", cma.pc_, n, 1);
    read("p_sigma", cma.pSigma_, n, 1);
    read("funhist", cma.funhist_, cma.funhist_.size(), 1);
    cma.generation_ = json.value(QStringLiteral("generation")).toInt(-1);
    cma.sigma_ = sigma;
    if (!complete || cma.generation_ < 0) {
        return std::nullopt;
    }
    return cma;
}

}  // namespace tunedeck
