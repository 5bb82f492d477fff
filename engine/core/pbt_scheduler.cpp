#include "core/pbt_scheduler.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>

#include "core/counted.h"
#include "core/pbt_values.h"
#include "core/scheduler_options.h"

namespace tunedeck {

using namespace scheduler_options;
using namespace pbt_values;

namespace {

// Separates the population's draws from the searcher's and other schedulers' use of the seed.
constexpr std::uint64_t kPopulationStream = 0x706f70756c617465ULL;  // "populate"

// "lr 0.01 -> 0.012, batch 32 -> 64": the leaves that differ, for the exploit's reason.
void describeChanges(const QJsonObject& from, const QJsonObject& to, const QString& prefix,
                     QStringList* out) {
    for (auto it = to.begin(); it != to.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        const QJsonValue before = from.value(it.key());
        if (it.value().isObject() && before.isObject()) {
            describeChanges(before.toObject(), it.value().toObject(), path, out);
        } else if (!sameValue(before, it.value())) {
            out->append(QStringLiteral("%1 %2 -> %3")
                            .arg(path, describeValue(before), describeValue(it.value())));
        }
    }
}

}  // namespace

PbtScheduler::PbtScheduler(Options options, std::unique_ptr<PopulationExplorer> explorer)
    : options_(std::move(options)),
      explorer_(std::move(explorer)),
      nextSync_(std::max(options_.perturbationInterval, options_.burnInPeriod)) {}

PbtScheduler::Member& PbtScheduler::memberOf(const Trial& trial) {
    auto it = members_.find(trial.id);
    if (it == members_.end()) {
        Member m;
        m.index = trial.index;
        m.config = trial.config;
        m.iteration = trial.iteration;
        m.rng = Rng::forStream(options_.seed ^ kPopulationStream,
                               static_cast<std::uint64_t>(trial.index));
        it = members_.emplace(trial.id, std::move(m)).first;
    }
    return it->second;
}

void PbtScheduler::onTrialAdd(const Trial& trial) {
    Member& m = memberOf(trial);
    m.config = trial.config;
    if (isFinished(trial.status) && !m.finished) {
        // A resumed run's finished trial, which the saved state (up to a second older than the
        // history) may still count as a member: the others must not wait for it at a sync point.
        m.finished = true;
        due_.erase(trial.id);
        releaseWaitingTrials();
    }
}

PbtScheduler::Quantiles PbtScheduler::quantiles() const {
    std::vector<std::pair<const QString*, const Member*>> scored;
    for (const auto& [id, m] : members_) {
        if (m.score && !m.finished) {
            scored.emplace_back(&id, &m);
        }
    }
    std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
        if (*a.second->score != *b.second->score) {
            return *a.second->score < *b.second->score;
        }
        return a.second->index < b.second->index;
    });
    Quantiles q;
    const std::size_t n = scored.size();
    q.ranked = n;
    if (n == 0) {
        return q;
    }
    if (n == 1) {
        q.upper.push_back(*scored.front().first);
        return q;
    }
    const auto size = std::min(
        static_cast<std::size_t>(std::ceil(static_cast<double>(n) * options_.quantileFraction)),
        n / 2);
    for (std::size_t i = 0; i < size; ++i) {
        q.lower.push_back(*scored[i].first);
        q.upper.push_back(*scored[n - size + i].first);
    }
    return q;
}

SchedulerDecision PbtScheduler::checkpointOrExploit(const QString& trialId, const Quantiles& q,
                                                    double time, std::int64_t iteration) {
    Member& m = members_.at(trialId);
    const bool top = std::find(q.upper.begin(), q.upper.end(), trialId) != q.upper.end();
    m.saved = top;
    if (top) {
        return SchedulerDecision::proceedAndSave();
    }
    if (std::find(q.lower.begin(), q.lower.end(), trialId) == q.lower.end()) {
        return SchedulerDecision::proceed();
    }
    const QString& sourceId = q.upper[static_cast<std::size_t>(
        m.rng.integer(0, static_cast<std::int64_t>(q.upper.size())))];
    const Member& source = members_.at(sourceId);
    if (!source.saved) {
        return SchedulerDecision::proceed();  // Ray: no checkpoint of the source, no exploit
    }
    const QJsonObject config = explorer_->explore(trialId, sourceId, source.config, m.rng);
    exploits_.push_back({trialId, sourceId, time, iteration, m.config, source.config, config});

    QStringList changes;
    describeChanges(source.config, config, QString(), &changes);
    const double sign = signOf();
    const QString reason =
        QStringLiteral(
            "%1: %2 %3 at %4 %5 is in the bottom %6% of %7 trials; copying %8 (%2 %9)%10")
            .arg(explorer_->name(), options_.metric, formatNumber(sign * m.score.value_or(0)),
                 options_.timeAttr, formatNumber(time),
                 formatNumber(options_.quantileFraction * 100))
            .arg(q.ranked)
            .arg(sourceId, formatNumber(sign * source.score.value_or(0)),
                 changes.isEmpty() ? QStringLiteral(" and its config")
                                   : QStringLiteral(" with ") + changes.join(QStringLiteral(", ")));
    m.config = config;
    return SchedulerDecision::exploit(sourceId, config, reason);
}

SchedulerDecision PbtScheduler::onResult(const Trial& trial, const QJsonObject& result) {
    Member& m = memberOf(trial);
    m.config = trial.config;
    m.finished = false;
    m.iteration =
        static_cast<std::int64_t>(finiteNumberAt(result, QStringLiteral("training_iteration"))
                                      .value_or(static_cast<double>(trial.iteration)));
    if (std::optional<SchedulerDecision> decision = takeExploitDue(trial.id)) {
        return *decision;
    }
    const auto time = finiteNumberAt(result, options_.timeAttr);
    const auto value = finiteNumberAt(result, options_.metric);
    if (!time || !value) {
        return SchedulerDecision::proceed();
    }
    m.lastPerturbationTime = std::min(m.lastPerturbationTime, *time);
    if (*time < options_.burnInPeriod ||
        *time - m.lastPerturbationTime < options_.perturbationInterval) {
        return SchedulerDecision::proceed();
    }
    m.score = signOf() * *value;
    m.lastTrainTime = *time;
    explorer_->recordScore(trial.id, *time, m.config, *m.score);
    if (options_.synch) {
        const bool othersBehind = std::any_of(members_.begin(), members_.end(), [&](const auto& e) {
            return e.first != trial.id && !e.second.finished && e.second.lastTrainTime < nextSync_;
        });
        if (othersBehind) {
            // Waits as a give-way: a trial that cannot keep its progress here goes on (paused,
            // it would start again from an older checkpoint, return here and wait again).
            return SchedulerDecision::giveWay(
                QStringLiteral("%1: waiting for every trial to reach %2 %3")
                    .arg(explorer_->name(), options_.timeAttr, formatNumber(nextSync_)));
        }
        return synchronise(&trial.id, *time);
    }
    m.lastPerturbationTime = *time;
    const SchedulerDecision decision =
        checkpointOrExploit(trial.id, quantiles(), *time, m.iteration);
    if (decision.action == SchedulerDecision::Action::Continue && waiting_ > 0) {
        // A give-way: a trial that cannot keep its progress here goes on instead (restarted
        // from an older checkpoint it would come back to this point, and give way again).
        return SchedulerDecision::giveWay(QStringLiteral("%1: giving the slot to %2 at %3 %4")
                                              .arg(explorer_->name(),
                                                   counted(waiting_, "waiting trial"),
                                                   options_.timeAttr, formatNumber(*time)));
    }
    return decision;
}

SchedulerDecision PbtScheduler::synchronise(const QString* current, double time) {
    const Quantiles q = quantiles();
    for (auto& [id, m] : members_) {
        m.lastPerturbationTime = time;
    }
    // The top saves before anyone copies it (Ray orders upper, middle, lower for this).
    SchedulerDecision decision = SchedulerDecision::proceed();
    for (const QString& id : q.upper) {
        const SchedulerDecision d = checkpointOrExploit(id, q, time, members_.at(id).iteration);
        if (current && id == *current) {
            decision = d;
        }
    }
    for (auto& [id, m] : members_) {
        if (std::find(q.upper.begin(), q.upper.end(), id) == q.upper.end()) {
            m.saved = false;
        }
    }
    for (const QString& id : q.lower) {
        const SchedulerDecision d = checkpointOrExploit(id, q, time, members_.at(id).iteration);
        if (current && id == *current) {
            decision = d;
        } else if (d.action == SchedulerDecision::Action::Exploit) {
            due_.insert_or_assign(id, d);
        }
    }
    // The next sync point lies past every member's progress: a member already at it would wait
    // there for ever once the others have finished (chooseTrialToRun skips it).
    double furthest = 0;
    for (const auto& [id, m] : members_) {
        furthest = std::max(furthest, m.lastTrainTime);
    }
    double next = nextSync_ + options_.perturbationInterval;
    if (furthest >= next) {
        next += std::floor((furthest - next) / options_.perturbationInterval + 1) *
                options_.perturbationInterval;
    }
    nextSync_ = next;
    return decision;
}

std::vector<QString> PbtScheduler::exploitsDue() const {
    std::vector<QString> ids;
    ids.reserve(due_.size());
    for (const auto& [id, decision] : due_) {
        ids.push_back(id);
    }
    return ids;
}

std::optional<SchedulerDecision> PbtScheduler::takeExploitDue(const QString& trialId) {
    const auto it = due_.find(trialId);
    if (it == due_.end()) {
        return std::nullopt;
    }
    SchedulerDecision decision = std::move(it->second);
    due_.erase(it);
    members_.at(trialId).config = decision.config;
    return decision;
}

void PbtScheduler::releaseWaitingTrials() {
    // A trial that ends while the others wait at the sync point must not leave them waiting.
    if (!options_.synch) {
        return;
    }
    bool anyLive = false;
    double time = 0;
    for (const auto& [id, m] : members_) {
        if (m.finished) {
            continue;
        }
        if (m.lastTrainTime < nextSync_) {
            return;
        }
        anyLive = true;
        time = std::max(time, m.lastTrainTime);
    }
    if (anyLive) {
        synchronise(nullptr, time);
    }
}

void PbtScheduler::onComplete(const Trial& trial, const QJsonObject& lastResult) {
    (void)lastResult;
    Member& m = memberOf(trial);
    m.finished = true;
    due_.erase(trial.id);
    releaseWaitingTrials();
}

void PbtScheduler::onError(const Trial& trial) {
    // Out of the ranking until it reports again (a retried trial comes back with its result).
    Member& m = memberOf(trial);
    m.finished = true;
    due_.erase(trial.id);
    releaseWaitingTrials();
}

std::optional<QString> PbtScheduler::chooseTrialToRun(const std::vector<const Trial*>& waiting) {
    // Ray: the waiting trial with the least training first, so the population advances evenly;
    // in synch mode none that already reached the sync point.
    const Trial* best = nullptr;
    double bestTime = 0;
    for (const Trial* trial : waiting) {
        if (!trial) {
            continue;
        }
        const auto it = members_.find(trial->id);
        const double time = it == members_.end() ? 0 : it->second.lastTrainTime;
        if (options_.synch && time >= nextSync_) {
            continue;
        }
        if (!best || time < bestTime) {
            best = trial;
            bestTime = time;
        }
    }
    if (!best) {
        return std::nullopt;
    }
    return best->id;
}

std::vector<std::pair<QString, QString>> PbtScheduler::requiredResultKeys() const {
    if (!options_.requireAttrs) {
        return {};
    }
    return {{options_.timeAttr, options_.timeAttrKey}, {options_.metric, options_.metricKey}};
}

namespace {

QJsonObject exploitToJson(const PbtExploit& e) {
    return {{"trial", e.trialId},
            {"source", e.source},
            {"time", e.time},
            {"iteration", static_cast<qint64>(e.iteration)},
            {"old_config", e.oldConfig},
            {"source_config", e.sourceConfig},
            {"new_config", e.newConfig}};
}

PbtExploit exploitFromJson(const QJsonObject& o) {
    return {o.value("trial").toString(),
            o.value("source").toString(),
            o.value("time").toDouble(),
            static_cast<std::int64_t>(o.value("iteration").toDouble()),
            o.value("old_config").toObject(),
            o.value("source_config").toObject(),
            o.value("new_config").toObject()};
}

}  // namespace

QJsonObject PbtScheduler::saveState() const {
    QJsonObject trials;
    for (const auto& [id, m] : members_) {
        QJsonObject t{{"index", static_cast<qint64>(m.index)},
                      {"config", m.config},
                      {"last_perturbation", m.lastPerturbationTime},
                      {"last_train", m.lastTrainTime},
                      {"iteration", static_cast<qint64>(m.iteration)},
                      {"finished", m.finished},
                      {"saved", m.saved},
                      // 64 bits do not fit a JSON number (a double) exactly.
                      {"rng", QString::number(m.rng.state())}};
        if (m.score) {
            t.insert("score", *m.score);
        }
        if (const auto due = due_.find(id); due != due_.end()) {
            t.insert("pending", QJsonObject{{"source", due->second.source},
                                            {"config", due->second.config},
                                            {"reason", due->second.reason}});
        }
        trials.insert(id, t);
    }
    QJsonArray exploits;
    for (const PbtExploit& e : exploits_) {
        exploits.append(exploitToJson(e));
    }
    return {{"algorithm", explorer_->name()},
            {"next_sync", nextSync_},
            {"trials", trials},
            {"exploits", exploits},
            {"explorer", explorer_->saveState()}};
}

Status PbtScheduler::restoreState(const QJsonObject& state) {
    if (state.isEmpty()) {
        return Status::ok();  // nothing saved yet
    }
    if (state.value("algorithm").toString() != explorer_->name()) {
        return Status::corruption(QStringLiteral("%1 state was saved by '%2'")
                                      .arg(explorer_->name(), state.value("algorithm").toString()));
    }
    std::map<QString, Member> members;
    std::map<QString, SchedulerDecision> due;
    const QJsonObject trials = state.value("trials").toObject();
    for (auto it = trials.begin(); it != trials.end(); ++it) {
        const QJsonObject t = it.value().toObject();
        bool ok = false;
        const std::uint64_t rng = t.value("rng").toString().toULongLong(&ok);
        if (!ok || !t.value("index").isDouble()) {
            return Status::corruption(QStringLiteral("%1 state of trial %2 is unreadable")
                                          .arg(explorer_->name(), it.key()));
        }
        Member m;
        m.index = static_cast<std::int64_t>(t.value("index").toDouble());
        m.config = t.value("config").toObject();
        if (t.value("score").isDouble()) {
            m.score = t.value("score").toDouble();
        }
        m.lastPerturbationTime = t.value("last_perturbation").toDouble();
        m.lastTrainTime = t.value("last_train").toDouble();
        m.iteration = static_cast<std::int64_t>(t.value("iteration").toDouble());
        m.finished = t.value("finished").toBool();
        m.saved = t.value("saved").toBool();
        m.rng.setState(rng);
        if (t.value("pending").isObject()) {
            const QJsonObject p = t.value("pending").toObject();
            due.insert_or_assign(it.key(),
                                 SchedulerDecision::exploit(p.value("source").toString(),
                                                            p.value("config").toObject(),
                                                            p.value("reason").toString()));
        }
        members.emplace(it.key(), std::move(m));
    }
    if (Status s = explorer_->restoreState(state.value("explorer").toObject()); !s) {
        return s;
    }
    std::vector<PbtExploit> exploits;
    for (const QJsonValue& e : state.value("exploits").toArray()) {
        exploits.push_back(exploitFromJson(e.toObject()));
    }
    members_ = std::move(members);
    due_ = std::move(due);
    exploits_ = std::move(exploits);
    nextSync_ = state.value("next_sync").toDouble(nextSync_);
    return Status::ok();
}

}  // namespace tunedeck
