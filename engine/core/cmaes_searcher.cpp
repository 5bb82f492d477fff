#include "core/cmaes_searcher.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/search_space.h"

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
// Optuna's floor on sigma0 (avoids a division by zero in the package).
constexpr double kSigma0Floor = 1e-10;
// Optuna passes n_max_resampling = 10 * d.
constexpr int kResamplesPerDimension = 10;
// Below this the population has a single parent and the rank-mu rate is zero (the package then
// divides by it).
constexpr int kMinPopsize = 4;
// ipop stops doubling here; a larger population would not finish a generation in any budget.
constexpr int kMaxPopsize = 1 << 20;

const QString kX0 = QStringLiteral("x0");
const QString kSigma0 = QStringLiteral("sigma0");
const QString kPopsize = QStringLiteral("popsize");
const QString kNStartupTrials = QStringLiteral("n_startup_trials");
const QString kRestartStrategy = QStringLiteral("restart_strategy");
const QString kIncPopsize = QStringLiteral("inc_popsize");
const QString kConsiderPrunedTrials = QStringLiteral("consider_pruned_trials");

// Matrices are stored column by column (Eigen's order).
QJsonArray toArray(const Eigen::MatrixXd& m) {
    QJsonArray out;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        out.append(m.data()[i]);
    }
    return out;
}

std::optional<Eigen::MatrixXd> matrixOf(const QJsonValue& value, Eigen::Index rows,
                                        Eigen::Index cols = 1) {
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

}  // namespace

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
            {QStringLiteral("mean"), toArray(mean_)},
            {QStringLiteral("sigma"), sigma_},
            {QStringLiteral("C"), toArray(c_)},
            {QStringLiteral("B"), toArray(b_)},
            {QStringLiteral("D"), toArray(d_)},
            {QStringLiteral("pc"), toArray(pc_)},
            {QStringLiteral("p_sigma"), toArray(pSigma_)},
            {QStringLiteral("funhist"), toArray(funhist_)}};
}

std::optional<CmaEs> CmaEs::fromJson(const QJsonObject& json) {
    const QJsonValue meanValue = json.value(QStringLiteral("mean"));
    const auto mean = matrixOf(meanValue, meanValue.toArray().size());
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
        const auto value = matrixOf(json.value(QLatin1String(key)), rows, cols);
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

// ---------------------------------------------------------------------------------------------
// Options.

namespace {

QString formatNumber(double value) {
    return QString::number(value, 'g', 6);
}

// A value as the user wrote it, for "(got ...)".
QString shown(const QJsonValue& value) {
    switch (value.type()) {
        case QJsonValue::Double:
            return formatNumber(value.toDouble());
        case QJsonValue::String:
            return QStringLiteral("'%1'").arg(value.toString());
        case QJsonValue::Bool:
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Array:
            return QStringLiteral("a list");
        case QJsonValue::Object:
            return QStringLiteral("a mapping");
        default:
            return QStringLiteral("nothing");
    }
}

bool isSet(const QJsonObject& options, const QString& key) {
    return options.contains(key) && !options.value(key).isNull();
}

bool isWholeNumber(const QJsonValue& value) {
    const double v = value.toDouble();
    return value.isDouble() && std::isfinite(v) && v == std::floor(v);
}

Status optionError(QString* badKey, const QString& key, const QString& message) {
    if (badKey) {
        *badKey = key;
    }
    return Status::invalid(message);
}

// x0 as (dotted path, value): nested mappings and dotted keys both name nested parameters.
void flatten(const QJsonObject& object, const QString& prefix,
             std::vector<std::pair<QString, QJsonValue>>& out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject()) {
            flatten(it.value().toObject(), path, out);
        } else {
            out.emplace_back(path, it.value());
        }
    }
}

void insertAtPath(QJsonObject& object, const QStringList& parts, qsizetype at,
                  const QJsonValue& value) {
    if (at == parts.size() - 1) {
        object.insert(parts[at], value);
        return;
    }
    QJsonObject child = object.value(parts[at]).toObject();
    insertAtPath(child, parts, at + 1, value);
    object.insert(parts[at], child);
}

Status checkX0(const ExperimentSpec& spec, const UnitCube& cube, QString* badKey) {
    const QJsonValue x0 = spec.search.options.value(kX0);
    const QString key = QStringLiteral("search.x0");
    if (!x0.isObject()) {
        return optionError(
            badKey, key,
            QStringLiteral("x0 must be a mapping of parameter names to starting values (got %1)")
                .arg(shown(x0)));
    }
    std::vector<std::pair<QString, QJsonValue>> entries;
    flatten(x0.toObject(), QString(), entries);
    const QStringList coordinates = cube.paths();
    const auto domains = spec.searchSpace.flatDomains();
    for (const auto& [path, value] : entries) {
        const QString entryKey = key + QLatin1Char('.') + path;
        if (!coordinates.contains(path)) {
            return optionError(badKey, entryKey,
                               QStringLiteral("x0 sets '%1', which is not a numeric parameter "
                                              "cmaes searches (it searches %2)")
                                   .arg(path, coordinates.join(QStringLiteral(", "))));
        }
        if (!value.isDouble() || !std::isfinite(value.toDouble())) {
            return optionError(
                badKey, entryKey,
                QStringLiteral("x0: '%1' must be a number (got %2)").arg(path, shown(value)));
        }
        for (const auto& [domainPath, domain] : domains) {
            if (domainPath != path) {
                continue;
            }
            // Its bounds (randint's upper one excluded, as Ray), or for a normal what the unit
            // cube spans, mu -/+ 3 sigma.
            const bool normal =
                domain->kind == DomainKind::Normal || domain->kind == DomainKind::QNormal;
            const bool highOpen =
                domain->kind == DomainKind::RandInt || domain->kind == DomainKind::LogRandInt;
            const double low = normal ? domain->mu - 3 * domain->sigma : domain->low;
            const double high = normal ? domain->mu + 3 * domain->sigma : domain->high;
            const double v = value.toDouble();
            if (v < low || v > high || (highOpen && v == high)) {
                return optionError(badKey, entryKey,
                                   QStringLiteral("x0: '%1' = %2 is outside its range [%3, %4%5")
                                       .arg(path, formatNumber(v), formatNumber(low),
                                            formatNumber(high), highOpen ? ")" : "]"));
            }
        }
    }
    return Status::ok();
}

CmaesSearcher::Options optionsOf(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.search.options;
    CmaesSearcher::Options o;
    std::vector<std::pair<QString, QJsonValue>> entries;
    flatten(options.value(kX0).toObject(), QString(), entries);
    for (const auto& [path, value] : entries) {
        o.x0[path] = value.toDouble();
    }
    if (isSet(options, kSigma0)) {
        o.sigma0 = options.value(kSigma0).toDouble();
    }
    if (isSet(options, kPopsize)) {
        o.popsize = options.value(kPopsize).toInt();
    }
    o.nStartupTrials = options.value(kNStartupTrials).toInt(o.nStartupTrials);
    o.ipop = options.value(kRestartStrategy).toString() == QLatin1String("ipop");
    o.incPopsize = options.value(kIncPopsize).toInt(o.incPopsize);
    o.considerPrunedTrials = options.value(kConsiderPrunedTrials).toBool(false);
    return o;
}

}  // namespace

QStringList cmaesOptionNames() {
    return {kX0,
            kSigma0,
            kPopsize,
            kNStartupTrials,
            kRestartStrategy,
            kIncPopsize,
            kConsiderPrunedTrials};
}

Status validateCmaesOptions(const ExperimentSpec& spec, QString* badKey) {
    const QString metricKey = QStringLiteral("metric");
    if (spec.isMultiObjective()) {
        return optionError(badKey, metricKey, QStringLiteral("cmaes optimises one metric"));
    }
    if (spec.metric.isEmpty()) {
        return optionError(badKey, metricKey,
                           QStringLiteral("cmaes needs a metric: set the experiment's `metric`"));
    }
    const UnitCube cube(spec.searchSpace);
    if (cube.dimensions() == 0) {
        return optionError(badKey, QStringLiteral("search_space"),
                           QStringLiteral("cmaes needs at least one numeric parameter"));
    }
    const QJsonObject& options = spec.search.options;
    const auto at = [](const QString& option) { return QStringLiteral("search.") + option; };
    if (isSet(options, kSigma0)) {
        const QJsonValue v = options.value(kSigma0);
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() <= 0) {
            return optionError(badKey, at(kSigma0),
                               QStringLiteral("sigma0 must be a number > 0, a fraction of each "
                                              "parameter's range (got %1)")
                                   .arg(shown(v)));
        }
    }
    const struct {
        const QString& option;
        int minimum;
        int maximum;
    } wholeNumbers[] = {{kPopsize, kMinPopsize, kMaxPopsize},
                        {kNStartupTrials, 0, std::numeric_limits<int>::max()},
                        {kIncPopsize, 1, kMaxPopsize}};
    for (const auto& [option, minimum, maximum] : wholeNumbers) {
        const QJsonValue v = options.value(option);
        if (isSet(options, option) && (!isWholeNumber(v) || v.toDouble() < minimum)) {
            return optionError(badKey, at(option),
                               QStringLiteral("%1 must be a whole number >= %2 (got %3)")
                                   .arg(option)
                                   .arg(minimum)
                                   .arg(shown(v)));
        }
        if (v.toDouble() > maximum) {
            return optionError(badKey, at(option),
                               QStringLiteral("%1 must be at most %2 (got %3)")
                                   .arg(option)
                                   .arg(maximum)
                                   .arg(shown(v)));
        }
    }
    if (isSet(options, kRestartStrategy)) {
        const QJsonValue v = options.value(kRestartStrategy);
        if (v.toString() != QLatin1String("none") && v.toString() != QLatin1String("ipop")) {
            return optionError(
                badKey, at(kRestartStrategy),
                QStringLiteral("restart_strategy must be none or ipop (got %1)").arg(shown(v)));
        }
    }
    if (isSet(options, kConsiderPrunedTrials) && !options.value(kConsiderPrunedTrials).isBool()) {
        return optionError(badKey, at(kConsiderPrunedTrials),
                           QStringLiteral("consider_pruned_trials must be true or false (got %1)")
                               .arg(shown(options.value(kConsiderPrunedTrials))));
    }
    if (isSet(options, kX0)) {
        return checkX0(spec, cube, badKey);
    }
    return Status::ok();
}

std::unique_ptr<Searcher> makeCmaesSearcher(const ExperimentSpec& spec) {
    return std::make_unique<CmaesSearcher>(spec, optionsOf(spec));
}

// ---------------------------------------------------------------------------------------------
// The searcher: Optuna's sample_relative, one trial at a time.

CmaesSearcher::CmaesSearcher(const ExperimentSpec& spec, Options options)
    : ModelSearcher(spec, QStringLiteral("cmaes")),
      options_(std::move(options)),
      cube_(spec.searchSpace) {}

QJsonObject CmaesSearcher::randomConfig(Rng& rng, const QJsonObject& fixed) const {
    const std::int64_t gridSize = space().gridSize();
    const std::int64_t gridIndex = gridSize > 1 ? rng.integer(0, gridSize) : 0;
    return space().sample(rng, gridIndex, fixed);
}

Eigen::VectorXd CmaesSearcher::startingMean() const {
    Eigen::VectorXd mean = Eigen::VectorXd::Constant(cube_.dimensions(), 0.5);
    if (options_.x0.empty()) {
        return mean;
    }
    QJsonObject config = cube_.decode(mean);
    for (const auto& [path, value] : options_.x0) {
        insertAtPath(config, path.split(QLatin1Char('.')), 0, value);
    }
    const auto point = cube_.encode(config);
    const QStringList paths = cube_.paths();
    for (int i = 0; point && i < cube_.dimensions(); ++i) {
        if (options_.x0.count(paths[i])) {
            mean[i] = std::clamp((*point)[i], 0.0, 1.0);
        }
    }
    return mean;
}

void CmaesSearcher::tellIfGenerationComplete(Rng& rng) {
    const auto popsize = static_cast<std::size_t>(cma_->popsize());
    if (arrived_.size() < popsize) {
        return;
    }
    // Optuna tells the first popsize trials of the generation in trial order.
    std::stable_sort(arrived_.begin(), arrived_.end(),
                     [](const Arrival& a, const Arrival& b) { return a.order < b.order; });
    std::vector<CmaEs::Solution> solutions;
    for (std::size_t i = 0; i < popsize; ++i) {
        solutions.push_back(arrived_[i].solution);
    }
    cma_->tell(std::move(solutions));
    arrived_.clear();
    outstanding_.clear();  // what is still out belongs to the generation just told
    if (options_.ipop && cma_->shouldStop()) {
        ++restarts_;
        Eigen::VectorXd mean(cube_.dimensions());
        for (Eigen::Index i = 0; i < mean.size(); ++i) {
            mean[i] = rng.uniform01();
        }
        const int popsize = std::min(cma_->popsize() * options_.incPopsize, kMaxPopsize);
        cma_.emplace(mean, std::max(options_.sigma0, kSigma0Floor), popsize);
    }
}

Suggestion CmaesSearcher::propose(const QString& trialId, Rng& rng) {
    if (!cma_) {
        if (static_cast<std::int64_t>(observations().size()) < options_.nStartupTrials) {
            return Suggestion::of(randomConfig(rng, {}));
        }
        const int popsize =
            options_.popsize > 0 ? options_.popsize : CmaEs::defaultPopsize(cube_.dimensions());
        cma_.emplace(startingMean(), std::max(options_.sigma0, kSigma0Floor), popsize);
    }
    tellIfGenerationComplete(rng);
    const Eigen::VectorXd x = cma_->ask(rng);
    outstanding_[trialId] = proposed_++;
    return Suggestion::of(randomConfig(rng, cube_.decode(x)));
}

void CmaesSearcher::observed(const Observation& observation) {
    const auto it = outstanding_.find(observation.trialId);
    if (it == outstanding_.end()) {
        return;  // an older generation's, a startup trial, or a point to evaluate
    }
    const auto x = cube_.encode(observation.config);
    if (x && !observation.losses.empty()) {
        arrived_.push_back({it->second, {*x, observation.losses.front()}});
    }
    outstanding_.erase(it);
}

QJsonObject CmaesSearcher::saveModelState() const {
    QJsonObject outstanding;
    for (const auto& [trialId, order] : outstanding_) {
        outstanding.insert(trialId, static_cast<qint64>(order));
    }
    QJsonArray arrived;
    for (const Arrival& a : arrived_) {
        arrived.append(QJsonObject{{QStringLiteral("order"), static_cast<qint64>(a.order)},
                                   {QStringLiteral("x"), toArray(a.solution.x)},
                                   {QStringLiteral("value"), a.solution.value}});
    }
    QJsonObject state{{QStringLiteral("restarts"), restarts_},
                      {QStringLiteral("proposed"), static_cast<qint64>(proposed_)},
                      {QStringLiteral("outstanding"), outstanding},
                      {QStringLiteral("arrived"), arrived}};
    if (cma_) {
        state.insert(QStringLiteral("cma"), cma_->toJson());
    }
    return state;
}

Status CmaesSearcher::restoreModelState(const QJsonObject& state) {
    const auto corrupt = [](const QString& what) {
        return Status::corruption(QStringLiteral("cmaes state: %1").arg(what));
    };
    std::optional<CmaEs> cma;
    if (state.contains(QStringLiteral("cma"))) {
        cma = CmaEs::fromJson(state.value(QStringLiteral("cma")).toObject());
        if (!cma || cma->dimensions() != cube_.dimensions()) {
            return corrupt(QStringLiteral("the distribution does not fit the search space"));
        }
    }
    const QJsonValue restarts = state.value(QStringLiteral("restarts"));
    const QJsonValue proposed = state.value(QStringLiteral("proposed"));
    if (!isWholeNumber(restarts) || !isWholeNumber(proposed) || restarts.toInt() < 0 ||
        proposed.toInteger() < 0) {
        return corrupt(QStringLiteral("'restarts' and 'proposed' must be counts"));
    }
    std::map<QString, std::int64_t> outstanding;
    const QJsonObject out = state.value(QStringLiteral("outstanding")).toObject();
    for (auto it = out.begin(); it != out.end(); ++it) {
        if (!isWholeNumber(it.value())) {
            return corrupt(QStringLiteral("bad proposal order for '%1'").arg(it.key()));
        }
        outstanding[it.key()] = it.value().toInteger();
    }
    std::vector<Arrival> arrived;
    for (const QJsonValue& item : state.value(QStringLiteral("arrived")).toArray()) {
        const QJsonObject a = item.toObject();
        const auto x = matrixOf(a.value(QStringLiteral("x")), cube_.dimensions());
        const QJsonValue value = a.value(QStringLiteral("value"));
        if (!x || !value.isDouble() || !isWholeNumber(a.value(QStringLiteral("order")))) {
            return corrupt(QStringLiteral("a finished trial of the generation is unreadable"));
        }
        arrived.push_back({a.value(QStringLiteral("order")).toInteger(), {*x, value.toDouble()}});
    }
    if (!cma && (!outstanding.empty() || !arrived.empty())) {
        return corrupt(QStringLiteral("trials of a generation but no distribution"));
    }
    cma_ = std::move(cma);
    restarts_ = restarts.toInt();
    proposed_ = proposed.toInteger();
    outstanding_ = std::move(outstanding);
    arrived_ = std::move(arrived);
    return Status::ok();
}

}  // namespace tunedeck
