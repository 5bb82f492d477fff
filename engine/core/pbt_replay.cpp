#include "core/pbt_replay.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/scheduler_options.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

const QString kSchedule = QStringLiteral("schedule");
const QString kStep = QStringLiteral("step");
const QString kConfig = QStringLiteral("config");
const QString kTrainingIteration = QStringLiteral("training_iteration");

// One trial's part of a lineage, found walking back from the winner: `trialId` trained from
// its own iteration `from` (the exploit that gave it these weights, 0 for the root) to `to`.
struct Link {
    QString trialId;
    std::int64_t from = 0;
    std::int64_t to = 0;
    const RecordedExploit* exploit = nullptr;  // the exploit at `from`; null for the root
};

// The latest exploit of `trialId` at or before its own iteration `upTo` and recorded before
// `beforeId`: the one whose copied weights the trial had at `upTo`.
const RecordedExploit* weightsOrigin(const std::vector<const RecordedExploit*>& ofTrial,
                                     std::int64_t upTo, std::int64_t beforeId) {
    const RecordedExploit* latest = nullptr;
    for (const RecordedExploit* e : ofTrial) {
        if (e->id < beforeId && e->iteration <= upTo && (!latest || e->id > latest->id)) {
            latest = e;
        }
    }
    return latest;
}

void addChange(PbtReplaySchedule* schedule, std::int64_t step, const QJsonObject& config) {
    std::vector<ReplayChange>& changes = schedule->changes;
    if (step <= 0) {
        schedule->initialConfig = config;
        return;
    }
    if (!changes.empty() && changes.back().step == step) {
        changes.pop_back();  // two changes after the same step: the later one is what trained
    }
    const QJsonObject& current = changes.empty() ? schedule->initialConfig : changes.back().config;
    if (config != current) {
        changes.push_back({step, config});
    }
}

std::optional<std::int64_t> wholeNumber(const QJsonValue& value) {
    if (!value.isDouble()) {
        return std::nullopt;
    }
    const double number = value.toDouble();
    if (!std::isfinite(number) || number != std::floor(number) || std::fabs(number) > 1e15) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(number);
}

}  // namespace

Status computePbtReplaySchedule(const QString& trialId, std::int64_t lastIteration,
                                const std::vector<RecordedExploit>& exploits,
                                const QMap<QString, QJsonObject>& configs, PbtReplaySchedule* out) {
    if (!configs.contains(trialId)) {
        return Status::notFound(QStringLiteral("no trial %1 in this experiment").arg(trialId));
    }
    if (lastIteration < 0) {
        return Status::invalid(QStringLiteral("trial %1 has a negative iteration (%2)")
                                   .arg(trialId)
                                   .arg(lastIteration));
    }
    QMap<QString, std::vector<const RecordedExploit*>> byTrial;
    for (const RecordedExploit& e : exploits) {
        if (e.iteration < 0 || e.sourceIteration < 0) {
            return Status::invalid(QStringLiteral("exploit %1 of trial %2 has a negative iteration")
                                       .arg(e.id)
                                       .arg(e.trialId));
        }
        byTrial[e.trialId].push_back(&e);
    }

    // Walk back from the winner to the root; exploit ids only decrease, so this ends.
    std::vector<Link> links;
    Link link{trialId, 0, lastIteration, nullptr};
    std::int64_t beforeId = std::numeric_limits<std::int64_t>::max();
    for (;;) {
        const RecordedExploit* origin =
            weightsOrigin(byTrial.value(link.trialId), link.to, beforeId);
        if (!origin) {
            links.push_back(link);
            break;
        }
        if (!configs.contains(origin->sourceTrialId)) {
            return Status::notFound(
                QStringLiteral("exploit %1 of trial %2 copied trial %3, which is not in this "
                               "experiment")
                    .arg(origin->id)
                    .arg(origin->trialId, origin->sourceTrialId));
        }
        link.from = origin->iteration;
        link.exploit = origin;
        links.push_back(link);
        link = Link{origin->sourceTrialId, 0, origin->sourceIteration, nullptr};
        beforeId = origin->id;
    }

    // Forward from the root: each link trains (step, step + to - from] after taking its weights
    // at `step`, the step its source had reached.
    PbtReplaySchedule schedule;
    const Link& root = links.back();
    const std::vector<const RecordedExploit*> rootExploits = byTrial.value(root.trialId);
    const auto first = std::min_element(
        rootExploits.begin(), rootExploits.end(),
        [](const RecordedExploit* a, const RecordedExploit* b) { return a->id < b->id; });
    schedule.initialConfig =
        first != rootExploits.end() ? (*first)->oldConfig : configs.value(root.trialId);
    std::int64_t step = 0;
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
        if (it->exploit) {
            addChange(&schedule, step, it->exploit->newConfig);
        }
        const std::int64_t end = step + (it->to - it->from);
        if (end == step) {
            // Copied and never trained on (the winner exploited at its last result).
        } else if (!schedule.lineage.empty() && schedule.lineage.back().trialId == it->trialId) {
            schedule.lineage.back().toStep = end;  // a self-exploit keeps the weights
        } else {
            schedule.lineage.push_back({it->trialId, step, end});
        }
        step = end;
    }
    schedule.totalSteps = step;
    // A change after the last step would never train.
    while (!schedule.changes.empty() && schedule.changes.back().step >= schedule.totalSteps) {
        schedule.changes.pop_back();
    }
    *out = std::move(schedule);
    return Status::ok();
}

QJsonArray pbtReplayScheduleOption(const std::vector<ReplayChange>& changes) {
    QJsonArray list;
    for (const ReplayChange& change : changes) {
        list.append(
            QJsonObject{{kStep, static_cast<double>(change.step)}, {kConfig, change.config}});
    }
    return list;
}

QStringList pbtReplayOptionNames() {
    return {kSchedule, kTimeAttr, kMetric, kMode};
}

Status validatePbtReplayOptions(const ExperimentSpec& spec, QString* badKey) {
    const QJsonObject& options = spec.scheduler.options;
    if (Status status = checkOptionTypes(options, {}, badKey); !status) {
        return status;
    }
    const QJsonValue schedule = options.value(kSchedule);
    if (!schedule.isArray()) {
        return optionError(badKey, kSchedule,
                           QStringLiteral("scheduler option 'schedule' must be a list of "
                                          "{step, config} (pbt-replay writes it)"));
    }
    std::int64_t previous = 0;
    const QJsonArray items = schedule.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonObject item = items[i].toObject();
        const std::optional<std::int64_t> step = wholeNumber(item.value(kStep));
        QString problem;
        if (!items[i].isObject() || item.size() != 2 || !item.contains(kStep) ||
            !item.contains(kConfig)) {
            problem = QStringLiteral("must be a mapping with exactly 'step' and 'config'");
        } else if (!step || *step < 1) {
            problem = QStringLiteral("step must be a whole number >= 1");
        } else if (*step <= previous) {
            problem = QStringLiteral("step %1 must come after the step before it (%2)")
                          .arg(*step)
                          .arg(previous);
        } else if (!item.value(kConfig).isObject()) {
            problem = QStringLiteral("config must be a mapping of parameter names to values");
        }
        if (!problem.isEmpty()) {
            return optionError(
                badKey, kSchedule,
                QStringLiteral("scheduler option 'schedule': item %1 %2").arg(i + 1).arg(problem));
        }
        previous = *step;
    }
    return Status::ok();
}

std::unique_ptr<Scheduler> makePbtReplayScheduler(const ExperimentSpec& spec) {
    const QJsonObject& options = spec.scheduler.options;
    std::vector<ReplayChange> changes;
    for (const QJsonValue& item : options.value(kSchedule).toArray()) {
        const QJsonObject change = item.toObject();
        changes.push_back(
            {wholeNumber(change.value(kStep)).value_or(0), change.value(kConfig).toObject()});
    }
    return std::make_unique<PbtReplayScheduler>(
        options.value(kTimeAttr).toString(kTrainingIteration), std::move(changes));
}

PbtReplayScheduler::PbtReplayScheduler(QString timeAttr, std::vector<ReplayChange> changes)
    : timeAttr_(std::move(timeAttr)), changes_(std::move(changes)) {}

SchedulerDecision PbtReplayScheduler::onResult(const Trial& trial, const QJsonObject& result) {
    const std::optional<double> time = finiteNumberAt(result, timeAttr_);
    const int next = next_.value(trial.id, 0);
    if (!time || next >= int(changes_.size())) {
        return SchedulerDecision::proceed();
    }
    // The latest change due: a result that skipped past several steps goes to the config that
    // was training there, not through the ones in between.
    int due = -1;
    for (int i = next; i < int(changes_.size()); ++i) {
        if (static_cast<double>(changes_[size_t(i)].step) <= *time) {
            due = i;
        }
    }
    if (due < 0) {
        return SchedulerDecision::proceed();
    }
    next_.insert(trial.id, due + 1);
    const ReplayChange& change = changes_[size_t(due)];
    if (trial.config == change.config) {
        return SchedulerDecision::proceed();  // already on it (a resume after the change)
    }
    return SchedulerDecision::exploit(
        trial.id, change.config,
        QStringLiteral("pbt_replay: change %1 of %2, the config the replayed lineage trained "
                       "with after %3 %4")
            .arg(due + 1)
            .arg(changes_.size())
            .arg(timeAttr_)
            .arg(change.step));
}

std::vector<std::pair<QString, QString>> PbtReplayScheduler::requiredResultKeys() const {
    return {{timeAttr_, QStringLiteral("scheduler.time_attr")}};
}

QJsonObject PbtReplayScheduler::saveState() const {
    QJsonObject next;
    for (auto it = next_.cbegin(); it != next_.cend(); ++it) {
        next.insert(it.key(), it.value());
    }
    return QJsonObject{{QStringLiteral("scheduler"), QStringLiteral("pbt_replay")},
                       {QStringLiteral("next"), next}};
}

Status PbtReplayScheduler::restoreState(const QJsonObject& state) {
    if (state.isEmpty()) {
        return Status::ok();
    }
    if (state.value(QStringLiteral("scheduler")).toString() != QLatin1String("pbt_replay")) {
        return Status::invalid(QStringLiteral("scheduler state is for '%1', not 'pbt_replay'")
                                   .arg(state.value(QStringLiteral("scheduler")).toString()));
    }
    QMap<QString, int> next;
    const QJsonObject saved = state.value(QStringLiteral("next")).toObject();
    for (auto it = saved.begin(); it != saved.end(); ++it) {
        const std::optional<std::int64_t> index = wholeNumber(it.value());
        if (!index || *index < 0 || *index > std::int64_t(changes_.size())) {
            return Status::corruption(
                QStringLiteral("pbt_replay state: trial %1 has no change %2 to go on from")
                    .arg(it.key(), it.value().toVariant().toString()));
        }
        next.insert(it.key(), int(*index));
    }
    next_ = std::move(next);
    return Status::ok();
}

}  // namespace tunedeck
