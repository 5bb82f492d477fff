#include "models/experiment_data.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <algorithm>

#include "models/pareto_front.h"
#include "store/result_metric.h"

namespace tunedeck::app {

namespace {

constexpr int kMaxLogLines = 2000;  // per trial; the whole log stays in trial.log

void flattenInto(const QJsonObject& object, const QString& prefix, QJsonObject* out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + '.' + it.key();
        if (it.value().isObject()) {
            flattenInto(it.value().toObject(), key, out);
        } else {
            out->insert(key, it.value());
        }
    }
}

}  // namespace

QHash<QString, double> reportedMetricsIn(const QJsonObject& result) {
    // What the engine adds to every result (Ray Tune's auto-filled keys): the table shows the
    // iteration and the runtime in columns of their own, the rest is bookkeeping.
    static const QStringList kFilledIn{QStringLiteral("training_iteration"),
                                       QStringLiteral("time_total_s"),
                                       QStringLiteral("time_this_iter_s"),
                                       QStringLiteral("timestamp"),
                                       QStringLiteral("iterations_since_restore"),
                                       QStringLiteral("trial_id"),
                                       QStringLiteral("done")};
    QHash<QString, double> metrics;
    for (auto it = result.constBegin(); it != result.constEnd(); ++it) {
        if (it.value().isDouble() && !kFilledIn.contains(it.key())) {
            metrics.insert(it.key(), it.value().toDouble());
        }
    }
    return metrics;
}

double metricIn(const QJsonObject& result, const QString& metric) {
    return store::metricInResult(result, metric);  // the rule the history reader follows too
}

double scoreOf(const TrialRow& row, bool minimize, ScoreScope scope) {
    return trialScore(row.values, minimize ? MetricMode::Min : MetricMode::Max, scope)
        .value_or(kNoValue);
}

int bestRowOf(const std::vector<TrialRow>& rows, bool minimize, ScoreScope scope) {
    const MetricMode mode = minimize ? MetricMode::Min : MetricMode::Max;
    int best = -1;
    double bestScore = kNoValue;
    for (int i = 0; i < int(rows.size()); ++i) {
        const double s = scoreOf(rows[std::size_t(i)], minimize, scope);
        if (std::isnan(s)) {
            continue;
        }
        // Equal scores go to the lower trial id, as rankScores orders them.
        if (best < 0 || betterScore(s, bestScore, mode) ||
            (s == bestScore && rows[std::size_t(i)].id < rows[std::size_t(best)].id)) {
            best = i;
            bestScore = s;
        }
    }
    return best;
}

QString scoreScopeText(ScoreScope scope) {
    switch (scope) {
        case ScoreScope::Last:
            return QCoreApplication::translate("tunedeck::app::BestTrial", "last result");
        case ScoreScope::All:
            return QCoreApplication::translate("tunedeck::app::BestTrial", "best result");
        case ScoreScope::Avg:
            return QCoreApplication::translate("tunedeck::app::BestTrial",
                                               "average of all results");
        case ScoreScope::Last5Avg:
            return QCoreApplication::translate("tunedeck::app::BestTrial", "average of the last 5");
        case ScoreScope::Last10Avg:
            return QCoreApplication::translate("tunedeck::app::BestTrial",
                                               "average of the last 10");
    }
    return scoreScopeName(scope);
}

std::optional<EarlyStop> earlyStopOf(const TrialRow& row) {
    if (row.status != QLatin1String("TERMINATED")) {
        return std::nullopt;
    }
    return tunedeck::earlyStopOf(row.reason, row.iteration);
}

void ExperimentData::setObjective(const QString& metric, bool minimize) {
    metric_ = metric;
    minimize_ = minimize;
    objectives_ = {Objective{metric, minimize ? MetricMode::Min : MetricMode::Max}};
    bestStale_ = true;
    allScoresStale_ = true;
}

void ExperimentData::setObjectives(std::vector<Objective> objectives) {
    if (!objectives.empty()) {
        metric_ = objectives.front().metric;
        minimize_ = objectives.front().mode == MetricMode::Min;
    }
    objectives_ = std::move(objectives);
    bestStale_ = true;
    allScoresStale_ = true;
}

void ExperimentData::setScope(ScoreScope scope) {
    if (scope != scope_) {
        scope_ = scope;
        bestStale_ = true;
        allScoresStale_ = true;
        changes_.scopeChanged = true;
    }
}

void ExperimentData::clear() {
    trials_.clear();
    rowById_.clear();
    configKeys_.clear();
    choices_.clear();
    metricNames_.clear();
    status_.clear();
    startTime_ = 0;
    runStartTime_ = 0;
    logs_.clear();
    exploits_.clear();
    changes_ = {};
    bestStale_ = true;
    allScoresStale_ = true;
    changes_.rowsAdded = true;
    changes_.configKeysChanged = true;
    changes_.metricNamesChanged = true;
    changes_.curvesChanged = true;
    changes_.logsChanged = true;
    changes_.exploitsChanged = true;
}

void ExperimentData::setChoices(SpecChoices choices) {
    if (choices != choices_) {
        choices_ = std::move(choices);
        changes_.configKeysChanged = true;  // the same keys, placed anew
    }
}

void ExperimentData::load(std::vector<TrialRow> trials, std::vector<Exploit> exploits,
                          QString status, double startTime) {
    clear();
    trials_ = std::move(trials);
    exploits_ = std::move(exploits);
    status_ = std::move(status);
    startTime_ = startTime;
    for (int i = 0; i < int(trials_.size()); ++i) {
        rowById_.insert(trials_[std::size_t(i)].id, i);
        for (const QString& key : trials_[std::size_t(i)].flatConfig.keys()) {
            if (!configKeys_.contains(key)) {
                configKeys_.append(key);
            }
        }
    }
    configKeys_.sort();
    for (const TrialRow& row : trials_) {
        addMetricNames(row.metrics);
    }
}

void ExperimentData::addMetricNames(const QHash<QString, double>& metrics) {
    bool added = false;
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
        if (!metricNames_.contains(it.key())) {
            metricNames_.append(it.key());
            added = true;
        }
    }
    if (added) {
        metricNames_.sort();
        changes_.metricNamesChanged = true;
    }
}

int ExperimentData::rowOf(const QString& trialId) const {
    return rowById_.value(trialId, -1);
}

int ExperimentData::rowFor(const QString& trialId, double time) {
    const auto it = rowById_.constFind(trialId);
    if (it != rowById_.constEnd()) {
        return *it;
    }
    TrialRow row;
    row.id = trialId;
    row.addedAt = time;
    trials_.push_back(row);
    rowById_.insert(trialId, int(trials_.size()) - 1);
    changes_.rowsAdded = true;
    return int(trials_.size()) - 1;
}

void ExperimentData::apply(const events::Event& event) {
    const double time = event.time;
    if (startTime_ == 0 && time > 0) {
        startTime_ = time;
    }
    if (const auto* result = event.as<events::ResultEvent>()) {
        const int index = rowFor(result->trial, time);
        onResult(trials_[std::size_t(index)], result->result, time);
        changes_.rows.insert(index);
        if (isMultiObjective() && !allScoresStale_) {
            staleScoreRows_.push_back(index);
            if (staleScoreRows_.size() > trials_.size()) {  // nobody asked for a while
                allScoresStale_ = true;
                staleScoreRows_.clear();
            }
        }
    } else if (const auto* added = event.as<events::TrialAddedEvent>()) {
        const int index = rowFor(added->trial, time);
        TrialRow& row = trials_[std::size_t(index)];
        row.config = added->config;
        row.configFloats = added->configFloats;
        row.flatConfig = flatten(row.config);
        bool keysAdded = false;
        for (const QString& key : row.flatConfig.keys()) {
            if (!configKeys_.contains(key)) {
                configKeys_.append(key);
                keysAdded = true;
            }
        }
        if (keysAdded) {
            configKeys_.sort();
            changes_.configKeysChanged = true;
        }
        changes_.rows.insert(index);
    } else if (const auto* status = event.as<events::TrialStatusEvent>()) {
        const int index = rowFor(status->trial, time);
        TrialRow& row = trials_[std::size_t(index)];
        row.status = status->status;
        row.reason = status->reason;
        if (status->node) {
            row.node = *status->node;
        }
        row.lastAt = std::max(row.lastAt, time);
        addStatusChange(row, *status, time);
        changes_.rows.insert(index);
    } else if (const auto* checkpoint = event.as<events::CheckpointEvent>()) {
        const int index = rowFor(checkpoint->trial, time);
        addCheckpoint(trials_[std::size_t(index)], *checkpoint);
        changes_.rows.insert(index);
    } else if (const auto* exploit = event.as<events::ExploitEvent>()) {
        const int index = rowFor(exploit->trial, time);
        TrialRow& row = trials_[std::size_t(index)];
        row.config = exploit->newConfig;
        row.configFloats = exploit->newConfigFloats;
        row.flatConfig = flatten(row.config);
        changes_.rows.insert(index);
        exploits_.push_back(Exploit{*exploit, event.seq, time});
        changes_.exploitsChanged = true;
    } else if (const auto* note = event.as<events::TrialNoteEvent>()) {
        const int index = rowFor(note->trial, time);
        trials_[std::size_t(index)].note = note->note;
        changes_.rows.insert(index);
    } else if (const auto* log = event.as<events::LogEvent>()) {
        appendLog(log->trial, log->message);
    } else if (const auto* warning = event.as<events::WarningEvent>()) {
        appendLog(warning->trial, warning->message);
    } else if (event.as<events::ExperimentStartedEvent>() != nullptr) {
        status_ = QStringLiteral("running");
        runStartTime_ = time;
    } else if (const auto* finished = event.as<events::ExperimentFinishedEvent>()) {
        status_ = finished->status;
    }
}

void ExperimentData::addStatusChange(TrialRow& row, const events::TrialStatusEvent& status,
                                     double time) {
    TrialStatusChange change;
    change.status = status.status;
    change.reason = status.reason;
    // An event without a node keeps the one the trial had.
    change.node = status.node                 ? *status.node
                  : row.statusHistory.empty() ? QString()
                                              : row.statusHistory.back().node;
    change.iteration = status.iteration;
    change.time = time;
    row.statusHistory.push_back(std::move(change));
    row.failures = std::max(row.failures, status.failures);
    if (status.status == QLatin1String("RUNNING")) {
        row.gpus = status.gpus;
        row.ranks = status.ranks;
    }
}

void ExperimentData::addCheckpoint(TrialRow& row, const events::CheckpointEvent& checkpoint) {
    row.checkpoints.push_back(TrialCheckpoint{checkpoint.iteration, checkpoint.path});
}

void ExperimentData::appendLog(const QString& trialId, const QString& message) {
    QStringList& lines = logs_[trialId];
    lines.append(message);
    if (lines.size() > kMaxLogLines) {
        lines.remove(0, lines.size() - kMaxLogLines);
    }
    changes_.logsChanged = true;
}

void ExperimentData::onResult(TrialRow& row, const QJsonObject& result, double time) {
    const qint64 iteration = qint64(result.value("training_iteration").toDouble());
    // A trial restored from a checkpoint reports some iterations again: its curve goes back to
    // that point, as the history does.
    const std::size_t kept = pointsKeptBefore(row.iterations, double(iteration));
    if (kept < row.iterations.size()) {
        ++row.rewinds;
        row.iterations.resize(kept);
        row.times.resize(kept);
        row.values.resize(kept);
        bestStale_ = true;
    }
    row.iteration = iteration;
    row.lastAt = std::max(row.lastAt, time);
    row.timeTotalS = result.value(QLatin1String("time_total_s")).toDouble(row.timeTotalS);
    row.metrics = reportedMetricsIn(result);
    addMetricNames(row.metrics);
    if (isMultiObjective()) {
        row.objectiveCurves.resize(objectives_.size());
        for (std::size_t i = 0; i < objectives_.size(); ++i) {
            ObjectiveCurve& curve = row.objectiveCurves[i];
            const std::size_t keep = pointsKeptBefore(curve.iterations, double(iteration));
            curve.iterations.resize(keep);
            curve.values.resize(keep);
            const double objective = metricIn(result, objectives_[i].metric);
            if (!std::isnan(objective)) {
                curve.iterations.push_back(double(iteration));
                curve.values.push_back(objective);
            }
        }
        bestStale_ = true;
    }
    const double value = metricIn(result, metric_);
    if (std::isnan(value)) {
        return;
    }
    row.latest = value;
    if (std::isnan(row.best) || (minimize_ ? value < row.best : value > row.best)) {
        row.best = value;
    }
    row.iterations.push_back(double(iteration));
    row.times.push_back(time - startTime_);
    row.values.push_back(value);
    changes_.curvesChanged = true;
    bestStale_ = true;
}

int ExperimentData::bestRow() const {
    if (bestStale_) {
        // With several objectives no trial is best: the front is (`tunedeck-engine best`).
        bestRow_ = isMultiObjective() ? -1 : bestRowOf(trials_, minimize_, scope_);
        paretoFront_.clear();
        if (isMultiObjective()) {
            refreshObjectiveScores();
            paretoFront_ = paretoFrontOf(objectiveScores_, objectives_);
        }
        bestStale_ = false;
    }
    return bestRow_;
}

const std::vector<int>& ExperimentData::paretoFront() const {
    bestRow();
    return paretoFront_;
}

bool ExperimentData::onParetoFront(int row) const {
    const std::vector<int>& front = paretoFront();
    return std::binary_search(front.begin(), front.end(), row);
}

bool ExperimentData::isBest(int row) const {
    return isMultiObjective() ? onParetoFront(row) : row >= 0 && row == bestRow();
}

bool ExperimentData::hasEveryObjective(int row) const {
    if (!isMultiObjective()) {
        return !std::isnan(score(row));
    }
    for (std::size_t k = 0; k < objectives_.size(); ++k) {
        if (std::isnan(objectiveScore(row, k))) {
            return false;
        }
    }
    return true;
}

double ExperimentData::objectiveScore(int row, std::size_t objective) const {
    if (row < 0 || row >= int(trials_.size()) || objective >= objectives_.size()) {
        return kNoValue;
    }
    if (!isMultiObjective()) {
        return objectiveScoreOf(trials_[std::size_t(row)], objectives_, objective, scope_);
    }
    refreshObjectiveScores();
    return objectiveScores_[std::size_t(row) * objectives_.size() + objective];
}

void ExperimentData::refreshObjectiveScores() const {
    const std::size_t k = objectives_.size();
    const auto scoreRow = [&](std::size_t row) {
        for (std::size_t i = 0; i < k; ++i) {
            objectiveScores_[row * k + i] = objectiveScoreOf(trials_[row], objectives_, i, scope_);
        }
    };
    const std::size_t known = objectiveScores_.size() / std::max<std::size_t>(k, 1);
    if (allScoresStale_ || known > trials_.size()) {
        objectiveScores_.assign(trials_.size() * k, kNoValue);
        for (std::size_t row = 0; row < trials_.size(); ++row) {
            scoreRow(row);
        }
    } else {
        objectiveScores_.resize(trials_.size() * k, kNoValue);  // new rows: no result yet
        for (const int row : staleScoreRows_) {
            scoreRow(std::size_t(row));
        }
    }
    allScoresStale_ = false;
    staleScoreRows_.clear();
}

double ExperimentData::score(int row) const {
    return row < 0 || row >= int(trials_.size())
               ? kNoValue
               : scoreOf(trials_[std::size_t(row)], minimize_, scope_);
}

StatusCounts ExperimentData::counts() const {
    StatusCounts c;
    for (const TrialRow& row : trials_) {
        if (row.status == QLatin1String("RUNNING")) {
            ++c.running;
        } else if (row.status == QLatin1String("PAUSED")) {
            ++c.paused;
        } else if (row.status == QLatin1String("TERMINATED")) {
            ++c.terminated;
        } else if (row.status == QLatin1String("ERROR")) {
            ++c.error;
        } else {
            ++c.pending;
        }
    }
    return c;
}

const QStringList& ExperimentData::logOf(const QString& trialId) const {
    static const QStringList none;
    auto it = logs_.find(trialId);
    return it == logs_.end() ? none : it->second;
}

ExperimentData::Changes ExperimentData::takeChanges() {
    return std::exchange(changes_, {});
}

QJsonObject ExperimentData::flatten(const QJsonObject& config) {
    QJsonObject out;
    flattenInto(config, {}, &out);
    return out;
}

}  // namespace tunedeck::app
