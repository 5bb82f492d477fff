#include "core/pb2_explore.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "core/gaussian_process.h"
#include "core/pbt_values.h"
#include "core/scheduler_options.h"
#include "core/search_space.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

const QString kPerturbationInterval = QStringLiteral("perturbation_interval");
const QString kQuantileFraction = QStringLiteral("quantile_fraction");
const QString kBounds = QStringLiteral("hyperparam_bounds");
const QString kSynch = QStringLiteral("synch");
const QString kRequireAttrs = QStringLiteral("require_attrs");
const QString kLogConfig = QStringLiteral("log_config");

// Tuning constants, as Ray's pb2 / pb2_utils.
constexpr std::size_t kWindow = 200;       // observations the GP sees (Ray's min_len)
constexpr std::size_t kMaxRecords = 4000;  // records kept; older ones no longer reach the window
constexpr double kBetaScale = 0.2;         // beta_t = c1 * log(c2 * n): c1
constexpr double kBetaGrowth = 0.4;        // c2
constexpr double kTargetClip = 2;          // standardised targets are clipped to +-2
constexpr int kStarts = 10;                // random starts of the acquisition search
constexpr double kFirstStep = 0.2;         // compass search: first step, in scaled units
constexpr double kLastStep = 1e-3;         // ... and the step it stops below

double scaled(double value, double low, double high) {
    return high > low ? std::clamp((value - low) / (high - low), 0.0, 1.0) : 0.0;
}

}  // namespace

QStringList pb2OptionNames() {
    return {kTimeAttr, kMetric,       kMode,     kPerturbationInterval, kQuantileFraction, kBounds,
            kSynch,    kRequireAttrs, kLogConfig};
}

Status validatePb2Options(const ExperimentSpec& spec, QString* badKey) {
    if (Status s = validatePopulationOptions(spec, QStringLiteral("pb2"), {},
                                             {kSynch, kRequireAttrs, kLogConfig}, badKey);
        !s) {
        return s;
    }
    const QJsonValue given = spec.scheduler.options.value(kBounds);
    if (given.isUndefined() || (given.isObject() && given.toObject().isEmpty())) {
        return optionError(badKey, kBounds,
                           QStringLiteral("scheduler 'pb2' needs hyperparam_bounds: the numbers "
                                          "it may change, each as param: [low, high]"));
    }
    std::vector<PbtBound> bounds;
    if (Status s = parseParamBounds(spec, kBounds, &bounds, badKey); !s) {
        return s;
    }
    for (const PbtBound& b : bounds) {
        const QString key = kBounds + QLatin1Char('.') + b.path;
        if (!(b.low < b.high)) {
            return optionError(badKey, key,
                               QStringLiteral("%1: low (%2) must be below high (%3)")
                                   .arg(key, formatNumber(b.low), formatNumber(b.high)));
        }
        const Parameter* target = parameterAtPath(spec.searchSpace, b.path);
        const bool numeric =
            (target->kind == Parameter::Kind::Sampled && isNumericDomain(target->domain.kind)) ||
            (target->kind == Parameter::Kind::Constant && target->constant.isDouble());
        if (!numeric) {
            return optionError(badKey, key,
                               QStringLiteral("%1: search_space.%2 is not a number; pb2 changes "
                                              "numbers within a range only")
                                   .arg(key, b.path));
        }
        // A constant has no range (pb2 is what changes it); a domain's range holds the bounds,
        // as for pbt's hyperparam_mutations.
        const auto range = target->kind == Parameter::Kind::Sampled
                               ? pbt_values::closedRange(target->domain)
                               : std::nullopt;
        if (range && !pbt_values::rangeHolds(*range, b.low, b.high)) {
            return optionError(badKey, key,
                               QStringLiteral("%1 [%2, %3] reaches outside search_space.%4 (%5)")
                                   .arg(key, formatNumber(b.low), formatNumber(b.high), b.path,
                                        pbt_values::describeDomain(target->domain)));
        }
    }
    return Status::ok();
}

std::unique_ptr<Scheduler> makePb2Scheduler(const ExperimentSpec& spec) {
    std::vector<PbtBound> bounds;
    parseParamBounds(spec, kBounds, &bounds, nullptr);
    return std::make_unique<PbtScheduler>(populationOptions(spec),
                                          std::make_unique<Pb2Explorer>(std::move(bounds)));
}

Pb2Data pb2Data(const std::vector<Pb2Record>& records, const std::vector<PbtBound>& bounds,
                const QString& sourceId) {
    struct Observation {
        double time;
        double before;
        const std::vector<double>* values;
        double change;
        bool fromSource;
        double score;
    };
    std::vector<std::size_t> order(records.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return records[a].time < records[b].time;
    });
    // Ray groups by (trial, hyperparameters) and differences consecutive rows of a group.
    std::map<std::pair<QString, std::vector<double>>, const Pb2Record*> previous;
    std::vector<Observation> observations;
    for (std::size_t i : order) {
        const Pb2Record& r = records[i];
        const Pb2Record*& last = previous[{r.trialId, r.values}];
        if (last && r.time > last->time) {
            const double change = r.score - last->score;
            observations.push_back({r.time, last->score, &r.values, change / (r.time - last->time),
                                    r.trialId == sourceId, r.score});
        }
        last = &r;
    }
    Pb2Data data;
    double sourceBefore = 0;
    for (auto it = observations.rbegin(); it != observations.rend(); ++it) {
        if (it->fromSource) {
            data.hasSource = true;
            data.sourceTime = it->time;
            data.sourceScore = it->score;
            sourceBefore = it->before;
            break;
        }
    }
    if (observations.size() > kWindow) {
        observations.erase(observations.begin(),
                           observations.end() - static_cast<std::ptrdiff_t>(kWindow));
    }
    const auto n = static_cast<Eigen::Index>(observations.size());
    const auto h = static_cast<Eigen::Index>(bounds.size());
    data.x.resize(n, 2 + h);
    data.y.resize(n);
    if (n == 0) {
        return data;
    }
    double tLow = observations.front().time, tHigh = tLow;
    double sLow = observations.front().before, sHigh = sLow;
    for (const Observation& o : observations) {
        tLow = std::min(tLow, o.time);
        tHigh = std::max(tHigh, o.time);
        sLow = std::min(sLow, o.before);
        sHigh = std::max(sHigh, o.before);
    }
    for (Eigen::Index i = 0; i < n; ++i) {
        const Observation& o = observations[static_cast<std::size_t>(i)];
        data.x(i, 0) = scaled(o.time, tLow, tHigh);
        data.x(i, 1) = scaled(o.before, sLow, sHigh);
        for (Eigen::Index j = 0; j < h; ++j) {
            const PbtBound& b = bounds[static_cast<std::size_t>(j)];
            data.x(i, 2 + j) = scaled((*o.values)[static_cast<std::size_t>(j)], b.low, b.high);
        }
        data.y(i) = o.change;
    }
    // numpy's std (population), plus Ray's 1e-8 so a constant target does not divide by zero.
    const double mean = data.y.mean();
    const double sd = std::sqrt((data.y.array() - mean).square().mean());
    data.y = ((data.y.array() - mean) / (sd + 1e-8)).cwiseMax(-kTargetClip).cwiseMin(kTargetClip);
    // Ray asks at the source's latest (time, score before), scaled like the observations.
    data.at = {scaled(data.sourceTime, tLow, tHigh), scaled(sourceBefore, sLow, sHigh)};
    return data;
}

std::optional<std::vector<double>> Pb2Explorer::valuesOf(const QJsonObject& config) const {
    std::vector<double> values;
    for (const PbtBound& b : bounds_) {
        const QJsonValue v = valueAtPath(config, b.path);
        if (!v.isDouble()) {
            return std::nullopt;
        }
        values.push_back(v.toDouble());
    }
    return values;
}

void Pb2Explorer::recordScore(const QString& trialId, double time, const QJsonObject& config,
                              double score) {
    const auto values = valuesOf(config);
    if (!values) {
        return;  // a conditional parameter absent from this config: nothing to learn from
    }
    records_.push_back({trialId, time, *values, score});
    if (records_.size() > kMaxRecords) {
        records_.erase(records_.begin());
    }
}

Eigen::VectorXd Pb2Explorer::select(const Pb2Data& data, const Eigen::VectorXd& start, Rng& rng) {
    const Eigen::Index h = data.x.cols() - 2;
    GaussianProcess mean;
    mean.fit(data.x, data.y, rng, lastFit_ ? GpSearchStarts{&*lastFit_, 0} : GpSearchStarts{});
    lastFit_ = mean.hyperparameters();
    // The spread comes from a GP that also holds this round's picks, so they are not repeated.
    GaussianProcess spread = mean;
    if (!current_.empty()) {
        const auto extra = static_cast<Eigen::Index>(current_.size());
        Eigen::MatrixXd x(data.x.rows() + extra, data.x.cols());
        Eigen::VectorXd y = Eigen::VectorXd::Zero(data.x.rows() + extra);
        x.topRows(data.x.rows()) = data.x;
        y.head(data.y.rows()) = data.y;
        for (Eigen::Index i = 0; i < extra; ++i) {
            const auto& values = current_[static_cast<std::size_t>(i)];
            x(data.x.rows() + i, 0) = data.at(0);
            x(data.x.rows() + i, 1) = data.at(1);
            for (Eigen::Index j = 0; j < h; ++j) {
                const PbtBound& b = bounds_[static_cast<std::size_t>(j)];
                x(data.x.rows() + i, 2 + j) =
                    scaled(values[static_cast<std::size_t>(j)], b.low, b.high);
            }
        }
        spread.fit(x, y, rng, GpSearchStarts{&*lastFit_, 0});
    }
    const double n = static_cast<double>(data.x.rows());
    const double kappa = std::sqrt(std::max(0.0, kBetaScale * std::log(kBetaGrowth * n)));
    Eigen::VectorXd point(2 + h);
    point.head(2) = data.at;
    const auto ucb = [&](const Eigen::VectorXd& values) {
        point.tail(h) = values;
        double mu = 0, unused = 0, variance = 0;
        mean.predict(point, &mu, &unused);
        spread.predict(point, &unused, &variance);
        const double value = mu + kappa * std::sqrt(std::max(0.0, variance));
        return std::isfinite(value) ? value : -std::numeric_limits<double>::infinity();
    };

    Eigen::VectorXd best = start;
    double bestValue = ucb(start);
    for (int s = 0; s < kStarts; ++s) {
        Eigen::VectorXd x(h);
        for (Eigen::Index j = 0; j < h; ++j) {
            x(j) = rng.uniform01();
        }
        double value = ucb(x);
        for (double step = kFirstStep; step >= kLastStep;) {
            bool moved = false;
            for (Eigen::Index j = 0; j < h; ++j) {
                for (const double direction : {-1.0, 1.0}) {
                    Eigen::VectorXd candidate = x;
                    candidate(j) = std::clamp(x(j) + direction * step, 0.0, 1.0);
                    const double v = ucb(candidate);
                    if (v > value) {
                        x = candidate;
                        value = v;
                        moved = true;
                    }
                }
            }
            if (!moved) {
                step /= 2;
            }
        }
        if (value > bestValue) {
            best = x;
            bestValue = value;
        }
    }
    return best;
}

QJsonObject Pb2Explorer::explore(const QString& trialId, const QString& sourceId,
                                 const QJsonObject& sourceConfig, Rng& rng) {
    double latest = -std::numeric_limits<double>::infinity();
    for (const Pb2Record& r : records_) {
        latest = std::max(latest, r.time);
    }
    if (latest > lastExplorationTime_) {
        current_.clear();  // a new round: the picks of the last one no longer run alongside
    }
    QJsonObject config = sourceConfig;
    std::optional<std::vector<double>> chosen = valuesOf(sourceConfig);
    const Pb2Data data = pb2Data(records_, bounds_, sourceId);
    if (data.hasSource && chosen) {
        const auto h = static_cast<Eigen::Index>(bounds_.size());
        Eigen::VectorXd start(h);
        for (Eigen::Index j = 0; j < h; ++j) {
            const PbtBound& b = bounds_[static_cast<std::size_t>(j)];
            start(j) = scaled((*chosen)[static_cast<std::size_t>(j)], b.low, b.high);
        }
        const Eigen::VectorXd x = select(data, start, rng);
        for (Eigen::Index j = 0; j < h; ++j) {
            const PbtBound& b = bounds_[static_cast<std::size_t>(j)];
            double value = std::clamp(b.low + x(j) * (b.high - b.low), b.low, b.high);
            if (b.integer) {
                value = std::trunc(value);
            }
            (*chosen)[static_cast<std::size_t>(j)] = value;
            config = withValueAtPath(
                config, b.path,
                b.integer ? QJsonValue(static_cast<qint64>(value)) : QJsonValue(value));
        }
        records_.push_back({trialId, data.sourceTime, *chosen, data.sourceScore});
    }
    if (chosen) {
        if (latest > lastExplorationTime_) {
            lastExplorationTime_ = latest;
        }
        current_.push_back(*chosen);
    }
    return config;
}

QJsonObject Pb2Explorer::saveState() const {
    QJsonArray records;
    for (const Pb2Record& r : records_) {
        QJsonArray values;
        for (double v : r.values) {
            values.append(v);
        }
        records.append(QJsonArray{r.trialId, r.time, values, r.score});
    }
    QJsonArray current;
    for (const auto& values : current_) {
        QJsonArray row;
        for (double v : values) {
            row.append(v);
        }
        current.append(row);
    }
    QJsonObject state{{"records", records},
                      {"current", current},
                      {"last_exploration_time", lastExplorationTime_}};
    if (lastFit_) {
        state.insert(QStringLiteral("last_fit"), lastFit_->toJson());
    }
    return state;
}

Status Pb2Explorer::restoreState(const QJsonObject& state) {
    const auto numbers = [&](const QJsonValue& value, std::vector<double>* out) {
        const QJsonArray array = value.toArray();
        if (!value.isArray() || array.size() != static_cast<qsizetype>(bounds_.size())) {
            return false;
        }
        for (const QJsonValue& v : array) {
            out->push_back(v.toDouble());
        }
        return true;
    };
    const auto corrupt = [] {
        return Status::corruption(
            QStringLiteral("pb2 state does not match the experiment's hyperparam_bounds"));
    };
    std::vector<Pb2Record> records;
    for (const QJsonValue& value : state.value("records").toArray()) {
        const QJsonArray r = value.toArray();
        Pb2Record record{r.at(0).toString(), r.at(1).toDouble(), {}, r.at(3).toDouble()};
        if (r.size() != 4 || !numbers(r.at(2), &record.values)) {
            return corrupt();
        }
        records.push_back(std::move(record));
    }
    std::vector<std::vector<double>> current;
    for (const QJsonValue& value : state.value("current").toArray()) {
        current.emplace_back();
        if (!numbers(value, &current.back())) {
            return corrupt();
        }
    }
    std::optional<GpHyperparameters> lastFit;
    if (state.contains(QLatin1String("last_fit"))) {
        lastFit = GpHyperparameters::fromJson(state.value("last_fit").toObject());
        if (!lastFit || lastFit->lengthScales.size() != Eigen::Index(bounds_.size()) + 2) {
            return corrupt();
        }
    }
    records_ = std::move(records);
    current_ = std::move(current);
    lastExplorationTime_ = state.value("last_exploration_time").toDouble();
    lastFit_ = std::move(lastFit);
    return Status::ok();
}

}  // namespace tunedeck
