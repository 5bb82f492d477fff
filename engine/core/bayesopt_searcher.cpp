#include "core/bayesopt_searcher.h"

#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>

#include "core/gaussian_process.h"
#include "core/search_options.h"
#include "core/search_space.h"

namespace tunedeck {

using namespace search_options;

namespace {

const QString kNInitialPoints = QStringLiteral("n_initial_points");
const QString kAcquisition = QStringLiteral("acquisition");
const QString kXi = QStringLiteral("xi");
const QString kKappa = QStringLiteral("kappa");
const QString kMaxObservations = QStringLiteral("max_observations");

// Fewer trials than this cannot inform a GP with a handful of hyperparameters per dimension.
constexpr int kMinMaxObservations = 10;

// The acquisition search, per proposal. Quasi-random candidates cover the cube evenly; the
// local ones put a share of the effort where the optimum most likely is (near the best
// configs), which matters more as the dimension grows; refinement turns the best candidates
// into local maxima of the acquisition.
constexpr int kQuasiRandomCandidates = 2000;
constexpr int kLocalCandidates = 500;
constexpr int kLocalCentres = 5;                       // best training configs to search near
constexpr double kLocalSpreads[] = {0.2, 0.05, 0.01};  // Gaussian steps, in cube units
constexpr int kRefinedStarts = 5;
// See the header: a full hyperparameter search (default and random starts besides the
// previous fit) on the first proposal and then on every this-many-th.
constexpr int kProposalsPerFullSearch = 8;
constexpr int kRandomRestarts = 3;
constexpr int kRefineEvaluationsPerDimension = 30;
constexpr double kRefineSimplexSize = 0.05;

// The first parameter that is not a plain numeric coordinate, with what it is, or an empty
// path when every sampled parameter is one; `numeric` counts the coordinates.
struct NotContinuous {
    QString path;
    QString what;
};

NotContinuous findNotContinuous(const SearchSpace& space, const QString& prefix, int* numeric) {
    for (const Parameter& parameter : space.parameters) {
        const QString path = joinPath(prefix, parameter.name);
        if (parameter.when) {
            return {path, QStringLiteral("conditional (`when`)")};
        }
        if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            if (NotContinuous found = findNotContinuous(*parameter.group, path, numeric);
                !found.path.isEmpty()) {
                return found;
            }
        } else if (parameter.kind == Parameter::Kind::Sampled) {
            if (parameter.domain.kind == DomainKind::Choice) {
                return {path, QStringLiteral("a choice")};
            }
            if (parameter.domain.kind == DomainKind::Grid) {
                return {path, QStringLiteral("a grid")};
            }
            ++*numeric;
        }
    }
    return {};
}

double normalPdf(double z) {
    return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
}

double normalCdf(double z) {
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

// log(z Phi(z) + phi(z)), the log of expected improvement over a unit sd. Far below zero the
// direct sum cancels and then underflows (near z = -38), which would leave whole regions of
// the cube tied at zero; the asymptotic series keeps them ordered.
double logImprovementFactor(double z) {
    if (z > -25) {
        return std::log(z * normalCdf(z) + normalPdf(z));
    }
    const double inv2 = 1 / (z * z);
    return -0.5 * z * z - 0.5 * std::log(2 * std::numbers::pi) + std::log(inv2) +
           std::log(1 - 3 * inv2 + 15 * inv2 * inv2 - 105 * inv2 * inv2 * inv2);
}

// Points of the R_d sequence (Roberts, 2018): x_k = frac(shift + k alpha) with alpha the powers
// of the inverse of the d-dimensional golden ratio. Low-discrepancy like Sobol in any
// dimension, with a random shift so each proposal gets its own set.
Eigen::MatrixXd quasiRandomPoints(int count, int dimensions, Rng& rng) {
    double phi = 2;
    for (int i = 0; i < 30; ++i) {
        phi = std::pow(1 + phi, 1.0 / (dimensions + 1));
    }
    Eigen::VectorXd alpha(dimensions);
    Eigen::VectorXd shift(dimensions);
    for (int j = 0; j < dimensions; ++j) {
        alpha[j] = std::pow(1 / phi, j + 1);
        shift[j] = rng.uniform01();
    }
    Eigen::MatrixXd points(count, dimensions);
    for (int k = 0; k < count; ++k) {
        for (int j = 0; j < dimensions; ++j) {
            const double value = shift[j] + (k + 1) * alpha[j];
            points(k, j) = value - std::floor(value);
        }
    }
    return points;
}

// The interquartile range / 1.349 (the standard deviation for normal data) of `values`, or
// their standard deviation when that is zero, or 1: the unit of xi. A few very bad trials
// (Branin's corners are 700 times its optimum) would inflate the plain standard deviation and,
// with it, the margin, until EI stops refining near the best.
double robustSpread(const Eigen::VectorXd& values) {
    std::vector<double> sorted(values.data(), values.data() + values.size());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double iqr = n >= 4 ? (sorted[3 * n / 4] - sorted[n / 4]) / 1.349 : 0;
    if (iqr > 0) {
        return iqr;
    }
    const double mean = values.mean();
    const double sd = n > 1 ? std::sqrt((values.array() - mean).square().sum() / double(n - 1)) : 0;
    return sd > 0 ? sd : 1;
}

// The kriging believer: `fitted` with the `pending` points added as observations at the mean
// it predicts there, its hyperparameters kept.
GaussianProcess believe(const GaussianProcess& fitted, const Eigen::MatrixXd& x,
                        const Eigen::VectorXd& y, const std::vector<Eigen::VectorXd>& pending) {
    const Eigen::Index n = x.rows();
    Eigen::MatrixXd points(n + Eigen::Index(pending.size()), x.cols());
    Eigen::VectorXd values(points.rows());
    points.topRows(n) = x;
    values.head(n) = y;
    for (std::size_t i = 0; i < pending.size(); ++i) {
        double mean = 0;
        double variance = 0;
        fitted.predict(pending[i], &mean, &variance);
        points.row(n + Eigen::Index(i)) = pending[i].transpose();
        values[n + Eigen::Index(i)] = mean;
    }
    GaussianProcess believer;
    believer.fit(points, values, fitted.hyperparameters());
    return believer;
}

// Steps that leave [0, 1] come back in mirrored: clamping them would pile candidates up on
// the faces of the cube, where a GP's variance (and with it EI) is already inflated.
double reflectIntoUnit(double value) {
    if (value < 0) {
        value = -value;
    }
    if (value > 1) {
        value = 2 - value;
    }
    return std::clamp(value, 0.0, 1.0);
}

using Score = std::function<double(const Eigen::VectorXd&)>;

// Nelder-Mead maximisation of `score` inside [0, 1]^d (trial points are clamped into it).
Eigen::VectorXd refine(const Score& score, const Eigen::VectorXd& start, double startScore,
                       int maxEvaluations, double* bestScore) {
    const Eigen::Index d = start.size();
    std::vector<Eigen::VectorXd> simplex{start};
    std::vector<double> values{-startScore};  // minimised
    for (Eigen::Index i = 0; i < d; ++i) {
        Eigen::VectorXd vertex = start;
        vertex[i] += vertex[i] + kRefineSimplexSize <= 1 ? kRefineSimplexSize : -kRefineSimplexSize;
        simplex.push_back(vertex);
        values.push_back(-score(vertex));
    }
    int evaluations = int(d);
    const auto clamp = [](const Eigen::VectorXd& v) -> Eigen::VectorXd {
        return v.cwiseMax(0.0).cwiseMin(1.0);
    };
    std::vector<std::size_t> order(simplex.size());
    while (evaluations < maxEvaluations) {
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
        const std::size_t bestIndex = order.front();
        const std::size_t worst = order.back();
        const std::size_t secondWorst = order[order.size() - 2];
        double size = 0;
        for (const auto& vertex : simplex) {
            size = std::max(size, (vertex - simplex[bestIndex]).lpNorm<Eigen::Infinity>());
        }
        if (size < 1e-6) {
            break;
        }
        Eigen::VectorXd centroid = Eigen::VectorXd::Zero(d);
        for (std::size_t i = 0; i < simplex.size(); ++i) {
            if (i != worst) {
                centroid += simplex[i];
            }
        }
        centroid /= double(d);
        const Eigen::VectorXd reflected = clamp(centroid + (centroid - simplex[worst]));
        const double fReflected = -score(reflected);
        ++evaluations;
        if (fReflected < values[bestIndex]) {
            const Eigen::VectorXd expanded = clamp(centroid + 2 * (centroid - simplex[worst]));
            const double fExpanded = -score(expanded);
            ++evaluations;
            if (fExpanded < fReflected) {
                simplex[worst] = expanded;
                values[worst] = fExpanded;
            } else {
                simplex[worst] = reflected;
                values[worst] = fReflected;
            }
        } else if (fReflected < values[secondWorst]) {
            simplex[worst] = reflected;
            values[worst] = fReflected;
        } else {
            const bool outside = fReflected < values[worst];
            const Eigen::VectorXd contracted =
                outside ? Eigen::VectorXd(centroid + 0.5 * (reflected - centroid))
                        : Eigen::VectorXd(centroid + 0.5 * (simplex[worst] - centroid));
            const double fContracted = -score(contracted);
            ++evaluations;
            if (fContracted < std::min(fReflected, values[worst])) {
                simplex[worst] = contracted;
                values[worst] = fContracted;
            } else {
                for (std::size_t i = 0; i < simplex.size(); ++i) {
                    if (i != bestIndex) {
                        simplex[i] = simplex[bestIndex] + 0.5 * (simplex[i] - simplex[bestIndex]);
                        values[i] = -score(simplex[i]);
                        ++evaluations;
                    }
                }
            }
        }
    }
    const auto best = std::min_element(values.begin(), values.end()) - values.begin();
    *bestScore = -values[std::size_t(best)];
    return simplex[std::size_t(best)];
}

// The point of the cube with the highest `score`: quasi-random and local candidates, the best
// few (apart from each other) refined.
Eigen::VectorXd maximise(const Score& score, const Eigen::MatrixXd& bestPoints, int dimensions,
                         Rng& rng) {
    Eigen::MatrixXd candidates = quasiRandomPoints(kQuasiRandomCandidates, dimensions, rng);
    if (bestPoints.rows() > 0) {
        const Eigen::Index quasi = candidates.rows();
        candidates.conservativeResize(quasi + kLocalCandidates, Eigen::NoChange);
        for (int i = 0; i < kLocalCandidates; ++i) {
            const auto centre = bestPoints.row(i % bestPoints.rows());
            const double spread = kLocalSpreads[(i / bestPoints.rows()) % std::size(kLocalSpreads)];
            for (int j = 0; j < dimensions; ++j) {
                candidates(quasi + i, j) = reflectIntoUnit(centre[j] + rng.normal(0, spread));
            }
        }
    }
    std::vector<double> scores(std::size_t(candidates.rows()));
    for (Eigen::Index i = 0; i < candidates.rows(); ++i) {
        scores[std::size_t(i)] = score(candidates.row(i).transpose());
    }
    std::vector<std::size_t> order(scores.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });

    Eigen::VectorXd best = candidates.row(Eigen::Index(order.front())).transpose();
    double bestScore = scores[order.front()];
    std::vector<Eigen::VectorXd> starts;
    for (std::size_t index : order) {
        if (int(starts.size()) == kRefinedStarts) {
            break;
        }
        const Eigen::VectorXd candidate = candidates.row(Eigen::Index(index)).transpose();
        const bool distinct = std::all_of(starts.begin(), starts.end(), [&](const auto& start) {
            return (start - candidate).template lpNorm<Eigen::Infinity>() > 1e-3;
        });
        if (!distinct) {
            continue;
        }
        starts.push_back(candidate);
        double refinedScore = 0;
        const Eigen::VectorXd refined =
            refine(score, candidate, scores[index],
                   kRefineEvaluationsPerDimension * (dimensions + 1), &refinedScore);
        if (refinedScore > bestScore) {
            bestScore = refinedScore;
            best = refined;
        }
    }
    return best;
}

}  // namespace

QStringList bayesoptOptionNames() {
    return {kNInitialPoints, kAcquisition, kXi, kKappa, kMaxObservations};
}

Status validateBayesoptOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.search.options;
    if (options.contains(kNInitialPoints) &&
        !isWholeNumber(options.value(kNInitialPoints), 0, kLargestCount)) {
        return optionError(badKey, kNInitialPoints, QStringLiteral("must be a whole number >= 0"),
                           options.value(kNInitialPoints));
    }
    if (options.contains(kAcquisition)) {
        const QString acquisition = options.value(kAcquisition).toString();
        if (acquisition != QLatin1String("ei") && acquisition != QLatin1String("ucb")) {
            return optionError(badKey, kAcquisition,
                               QStringLiteral("must be 'ei' (expected improvement) or 'ucb' "
                                              "(upper confidence bound)"),
                               options.value(kAcquisition));
        }
    }
    if (options.contains(kXi) && !isNumberIn(options.value(kXi), 0, kUnbounded)) {
        return optionError(badKey, kXi, QStringLiteral("must be a number >= 0"),
                           options.value(kXi));
    }
    if (options.contains(kKappa) && !isNumberIn(options.value(kKappa), 0, kUnbounded)) {
        return optionError(badKey, kKappa, QStringLiteral("must be a number >= 0"),
                           options.value(kKappa));
    }
    if (options.contains(kMaxObservations) &&
        !isWholeNumber(options.value(kMaxObservations), kMinMaxObservations, kLargestCount)) {
        return optionError(badKey, kMaxObservations,
                           QStringLiteral("must be a whole number >= %1").arg(kMinMaxObservations),
                           options.value(kMaxObservations));
    }
    if (spec.objectives.empty() && spec.metric.isEmpty()) {
        return keyError(
            badKey, QStringLiteral("metric"),
            QStringLiteral(
                "search algorithm 'bayesopt' needs a metric: set the experiment's `metric`"));
    }
    if (spec.isMultiObjective()) {
        return keyError(badKey, QStringLiteral("metric"),
                        QStringLiteral("bayesopt optimises one metric (this experiment has %1); "
                                       "use tpe or random for several")
                            .arg(spec.objectives.size()));
    }
    int numeric = 0;
    const NotContinuous found = findNotContinuous(spec.searchSpace, QString(), &numeric);
    if (!found.path.isEmpty()) {
        const bool conditional = found.what.startsWith(QLatin1String("conditional"));
        return keyError(
            badKey, QStringLiteral("search_space.") + found.path,
            QStringLiteral("bayesopt needs a continuous space: '%1' is %2; use %3")
                .arg(found.path, found.what,
                     conditional ? QStringLiteral("tpe") : QStringLiteral("tpe or cmaes")));
    }
    if (numeric == 0) {
        return keyError(badKey, QStringLiteral("search_space"),
                        QStringLiteral("bayesopt needs at least one numeric parameter "
                                       "(uniform, loguniform, randint, normal, ...) to search"));
    }
    return Status::ok();
}

std::unique_ptr<Searcher> makeBayesoptSearcher(const ExperimentSpec& spec) {
    return std::make_unique<BayesoptSearcher>(spec);
}

BayesoptOptions BayesoptOptions::fromSpec(const ExperimentSpec& spec) {
    const QJsonObject& o = spec.search.options;
    BayesoptOptions options;
    options.nInitialPoints = o.value(kNInitialPoints).toInt(options.nInitialPoints);
    if (o.value(kAcquisition).toString() == QLatin1String("ucb")) {
        options.acquisition = Acquisition::UpperConfidenceBound;
    }
    options.xi = o.value(kXi).toDouble(options.xi);
    options.kappa = o.value(kKappa).toDouble(options.kappa);
    options.maxObservations = o.value(kMaxObservations).toInt(options.maxObservations);
    return options;
}

std::vector<std::size_t> bayesoptTrainingSet(const std::vector<double>& losses,
                                             int maxObservations) {
    const std::size_t n = losses.size();
    const std::size_t limit = std::size_t(std::max(maxObservations, 1));
    std::vector<std::size_t> chosen;
    if (n <= limit) {
        chosen.resize(n);
        std::iota(chosen.begin(), chosen.end(), 0);
        return chosen;
    }
    std::vector<std::size_t> byLoss(n);
    std::iota(byLoss.begin(), byLoss.end(), 0);
    std::stable_sort(byLoss.begin(), byLoss.end(),
                     [&](std::size_t a, std::size_t b) { return losses[a] < losses[b]; });
    std::vector<char> taken(n, 0);
    for (std::size_t i = 0; i < limit / 4; ++i) {
        taken[byLoss[i]] = 1;
    }
    std::size_t count = limit / 4;
    for (std::size_t i = n; i-- > 0 && count < limit;) {
        if (!taken[i]) {
            taken[i] = 1;
            ++count;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (taken[i]) {
            chosen.push_back(i);
        }
    }
    return chosen;
}

BayesoptSearcher::BayesoptSearcher(const ExperimentSpec& spec)
    : ModelSearcher(spec, QStringLiteral("bayesopt")),
      options_(BayesoptOptions::fromSpec(spec)),
      cube_(spec.searchSpace) {}

void BayesoptSearcher::trainingData(Eigen::MatrixXd* x, Eigen::VectorXd* y) const {
    const std::vector<Observation>& finished = observations();
    std::vector<double> losses;
    losses.reserve(finished.size());
    for (const Observation& observation : finished) {
        losses.push_back(observation.losses.front());
    }
    std::vector<Eigen::VectorXd> points;
    std::vector<double> values;
    for (std::size_t index : bayesoptTrainingSet(losses, options_.maxObservations)) {
        if (auto point = cube_.encode(finished[index].config)) {
            points.push_back(*point);
            values.push_back(losses[index]);
        }
    }
    x->resize(Eigen::Index(points.size()), cube_.dimensions());
    y->resize(Eigen::Index(points.size()));
    for (std::size_t i = 0; i < points.size(); ++i) {
        x->row(Eigen::Index(i)) = points[i].transpose();
        (*y)[Eigen::Index(i)] = values[i];
    }
}

Suggestion BayesoptSearcher::propose(const QString& trialId, Rng& rng) {
    (void)trialId;
    if (observations().size() < std::size_t(std::max(options_.nInitialPoints, 2))) {
        return Suggestion::of(space().sample(rng));
    }
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
    trainingData(&x, &y);
    if (x.rows() < 2) {
        return Suggestion::of(space().sample(rng));
    }
    GaussianProcess fitted;
    const bool full = !previousFit_ || warmFits_ + 1 >= kProposalsPerFullSearch;
    GpSearchStarts starts;
    starts.previous = previousFit_ ? &*previousFit_ : nullptr;
    starts.randomRestarts = full ? kRandomRestarts : 0;
    fitted.fit(x, y, rng, starts);
    previousFit_ = fitted.hyperparameters();
    warmFits_ = full ? 0 : warmFits_ + 1;
    std::vector<Eigen::VectorXd> pending;
    for (const auto& [id, config] : running()) {
        if (auto point = cube_.encode(config)) {
            pending.push_back(*point);
        }
    }
    const GaussianProcess model = pending.empty() ? fitted : believe(fitted, x, y, pending);

    const double target = y.minCoeff() - options_.xi * robustSpread(y);
    const bool ucb = options_.acquisition == BayesoptOptions::Acquisition::UpperConfidenceBound;
    const double kappa = options_.kappa;
    const Score score = [&model, target, ucb, kappa](const Eigen::VectorXd& point) {
        double mean = 0;
        double variance = 0;
        model.predict(point, &mean, &variance);
        const double sd = std::sqrt(variance);
        if (ucb) {
            return -(mean - kappa * sd);
        }
        if (!(sd > 0)) {
            return target > mean ? std::log(target - mean)
                                 : -std::numeric_limits<double>::infinity();
        }
        return std::log(sd) + logImprovementFactor((target - mean) / sd);
    };

    std::vector<std::size_t> byLoss(std::size_t(y.size()));
    std::iota(byLoss.begin(), byLoss.end(), 0);
    std::stable_sort(byLoss.begin(), byLoss.end(), [&](std::size_t a, std::size_t b) {
        return y[Eigen::Index(a)] < y[Eigen::Index(b)];
    });
    const Eigen::Index centres = std::min<Eigen::Index>(kLocalCentres, x.rows());
    Eigen::MatrixXd bestPoints(centres, x.cols());
    for (Eigen::Index i = 0; i < centres; ++i) {
        bestPoints.row(i) = x.row(Eigen::Index(byLoss[std::size_t(i)]));
    }
    const Eigen::VectorXd chosen = maximise(score, bestPoints, int(x.cols()), rng);
    return Suggestion::of(space().sample(rng, 0, cube_.decode(chosen)));
}

QJsonObject BayesoptSearcher::saveModelState() const {
    if (!previousFit_) {
        return {};
    }
    return {{QStringLiteral("previous_fit"), previousFit_->toJson()},
            {QStringLiteral("warm_fits"), warmFits_}};
}

Status BayesoptSearcher::restoreModelState(const QJsonObject& state) {
    previousFit_.reset();
    warmFits_ = 0;
    if (!state.contains(QStringLiteral("previous_fit"))) {
        return Status::ok();
    }
    auto fit = GpHyperparameters::fromJson(state.value(QStringLiteral("previous_fit")).toObject());
    const QJsonValue warmFits = state.value(QStringLiteral("warm_fits"));
    if (!fit || fit->lengthScales.size() != cube_.dimensions() ||
        !isWholeNumber(warmFits, 0, kLargestCount)) {
        return Status::corruption(
            QStringLiteral("bayesopt state: 'previous_fit' does not fit the search space"));
    }
    previousFit_ = std::move(fit);
    warmFits_ = warmFits.toInt();
    return Status::ok();
}

}  // namespace tunedeck
