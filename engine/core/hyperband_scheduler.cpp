#include "core/hyperband_scheduler.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/counted.h"
#include "core/scheduler_options.h"

namespace tunedeck {

using namespace scheduler_options;

namespace {

int bandSize(double maxT, double reductionFactor) {
    if (!(maxT >= 1) || !(reductionFactor > 1)) {
        return 1;  // options validation refuses these; never divide by log(1)
    }
    // np.round rounds halves to even, as nearbyint does in the default rounding mode.
    const double brackets = std::nearbyint(std::log(maxT) / std::log(reductionFactor)) + 1;
    return static_cast<int>(std::min(brackets, double(kHyperbandMaxBracketsPerBand + 1)));
}

QJsonValue optionalNumber(const std::optional<double>& value) {
    return value ? QJsonValue(*value) : QJsonValue();
}

std::optional<double> numberOrNothing(const QJsonValue& value) {
    if (!value.isDouble()) {
        return std::nullopt;
    }
    return value.toDouble();
}

}  // namespace

HyperbandScheduler::HyperbandScheduler(Options options)
    : options_(std::move(options)),
      sMax1_(std::max(1, bandSize(options_.maxT, options_.reductionFactor))) {}

HyperbandScheduler::Bracket HyperbandScheduler::freshBracket(int s, int band) const {
    Bracket bracket;
    bracket.s = s;
    bracket.band = band;
    bracket.n =
        std::ceil(static_cast<double>(sMax1_) / (s + 1) * std::pow(options_.reductionFactor, s));
    bracket.milestone = std::trunc(options_.maxT * std::pow(options_.reductionFactor, -s));
    return bracket;
}

void HyperbandScheduler::halveOnce(Bracket& bracket) const {
    bracket.n = std::ceil(bracket.n / options_.reductionFactor);
    bracket.milestone =
        std::trunc(std::min(bracket.milestone * options_.reductionFactor, options_.maxT));
    ++bracket.rung;
}

std::vector<HyperbandScheduler::Rung> HyperbandScheduler::plannedRungs(int s) const {
    Bracket bracket = freshBracket(s, 0);
    std::vector<Rung> rungs{{bracket.n, bracket.milestone}};
    while (bracket.rung < s) {
        halveOnce(bracket);
        rungs.push_back({bracket.n, bracket.milestone});
    }
    return rungs;
}

double HyperbandScheduler::totalWork(int s) const {
    // Ray's _calculate_total_work, budget cap included; it only orders brackets for
    // chooseTrialToRun, so its approximation is kept to pick the same trials Ray picks.
    const Bracket fresh = freshBracket(s, 0);
    double n = fresh.n;
    double r = fresh.milestone;
    const double first = r;
    double work = 0;
    for (int i = 0; i <= s; ++i) {
        work += std::trunc(n) * std::trunc(r);
        n = std::ceil(n / options_.reductionFactor);
        r = std::trunc(std::min(r * options_.reductionFactor, options_.maxT - first));
    }
    return work;
}

double HyperbandScheduler::completion(const Bracket& bracket) const {
    if (bracket.finished) {
        return 1.0;
    }
    const double work = totalWork(bracket.s);
    return work > 0 ? std::min(bracket.progress / work, 1.0) : 1.0;
}

bool HyperbandScheduler::reachedMilestone(const Bracket& bracket, const Member& member) const {
    return member.time && *member.time >= bracket.milestone;
}

bool HyperbandScheduler::keepsRunning(const Bracket& bracket, const Member& member) const {
    if (!options_.stopLastTrials && bracket.rung == bracket.s) {
        return true;
    }
    return !reachedMilestone(bracket, member);
}

bool HyperbandScheduler::rungDone(const Bracket& bracket) const {
    return std::all_of(bracket.live.begin(), bracket.live.end(),
                       [&](const Member& m) { return reachedMilestone(bracket, m); });
}

QString HyperbandScheduler::bracketName(const Bracket& bracket) const {
    if (bracket.band == 0) {
        return QStringLiteral("bracket %1").arg(bracket.s);
    }
    return QStringLiteral("band %1 bracket %2").arg(bracket.band).arg(bracket.s);
}

HyperbandScheduler::Member* HyperbandScheduler::memberOf(Bracket& bracket, const QString& trialId) {
    for (Member& member : bracket.live) {
        if (member.trialId == trialId) {
            return &member;
        }
    }
    return nullptr;
}

std::optional<int> HyperbandScheduler::bracketOf(const QString& trialId) const {
    const auto it = trialBracket_.constFind(trialId);
    if (it == trialBracket_.constEnd()) {
        return std::nullopt;
    }
    const Bracket& bracket = brackets_[static_cast<std::size_t>(it.value())];
    for (const Member& member : bracket.live) {
        if (member.trialId == trialId) {
            return bracket.s;
        }
    }
    return std::nullopt;
}

void HyperbandScheduler::onTrialAdd(const Trial& trial) {
    if (trialBracket_.contains(trial.id)) {
        recover(trial);
        return;
    }
    if (isFinished(trial.status)) {
        return;  // it never reports again, so a bracket would wait for it for ever
    }
    // A bracket takes trials until it is full or its first rung was judged without them.
    const auto hasRoom = [&](const Bracket& b) {
        return !b.finished && b.rung == 0 && static_cast<double>(b.assigned) < b.n;
    };
    if (currentBracket_ < 0 || !hasRoom(brackets_[static_cast<std::size_t>(currentBracket_)])) {
        for (;;) {
            if (bandLength_ >= sMax1_) {
                ++band_;
                bandLength_ = 0;
            }
            const int s = bandLength_++;
            Bracket bracket = freshBracket(s, band_);
            if (bracket.milestone > 0) {  // Ray skips a bracket whose first rung is at 0
                brackets_.push_back(std::move(bracket));
                currentBracket_ = static_cast<int>(brackets_.size()) - 1;
                break;
            }
        }
    }
    searcherIdle_ = false;
    Bracket& bracket = brackets_[static_cast<std::size_t>(currentBracket_)];
    bracket.live.push_back({trial.id, {}, {}});
    ++bracket.assigned;
    trialBracket_.insert(trial.id, currentBracket_);
    if (!trial.lastResult.isEmpty()) {
        recover(trial);  // added on resume after the state was saved
    }
}

void HyperbandScheduler::recover(const Trial& trial) {
    // On resume the runtime re-adds every trial after restoreState(); the state may be a
    // little older than the history, so catch up with where each trial really is.
    if (retired_.contains(trial.id)) {
        return;
    }
    if (isFinished(trial.status)) {
        leave(trial.id);
        return;
    }
    const int index = trialBracket_.value(trial.id);
    Bracket& bracket = brackets_[static_cast<std::size_t>(index)];
    Member* member = memberOf(bracket, trial.id);
    const auto time = finiteNumberAt(trial.lastResult, options_.timeAttr);
    if (!member || !time || (member->time && *member->time >= *time)) {
        return;  // the state knows as much as the history
    }
    record(bracket, *member, trial.lastResult);
    if (!keepsRunning(bracket, *member)) {
        process(index, QString());
    } else if (trial.status == TrialStatus::Paused) {
        bracket.toResume.insert(trial.id);  // paused short of its rung: it had been resumed
    }
}

bool HyperbandScheduler::record(Bracket& bracket, Member& member, const QJsonObject& result) {
    const auto time = finiteNumberAt(result, options_.timeAttr);
    if (!time) {
        return false;
    }
    const double sign = options_.mode == MetricMode::Min ? -1.0 : 1.0;
    if (const auto value = finiteNumberAt(result, options_.metric)) {
        member.value = sign * *value;
    }
    bracket.progress += *time - member.time.value_or(0);
    member.time = time;
    bracket.toResume.remove(member.trialId);
    return true;
}

SchedulerDecision HyperbandScheduler::onResult(const Trial& trial, const QJsonObject& result) {
    const auto it = trialBracket_.constFind(trial.id);
    if (it == trialBracket_.constEnd()) {
        return SchedulerDecision::proceed();
    }
    if (const auto why = retired_.constFind(trial.id); why != retired_.constEnd()) {
        return SchedulerDecision::stop(why.value());  // its stop order has not landed yet
    }
    const int index = it.value();
    Bracket& bracket = brackets_[static_cast<std::size_t>(index)];
    Member* member = memberOf(bracket, trial.id);
    if (!member || !record(bracket, *member, result)) {
        return SchedulerDecision::proceed();
    }
    if (keepsRunning(bracket, *member)) {
        return SchedulerDecision::proceed();
    }
    return process(index, trial.id);
}

void HyperbandScheduler::retire(const QString& trialId, const QString& reason,
                                const QString& current,
                                std::optional<SchedulerDecision>* decision) {
    const int index = trialBracket_.value(trialId, -1);
    if (index >= 0) {
        Bracket& bracket = brackets_[static_cast<std::size_t>(index)];
        std::erase_if(bracket.live, [&](const Member& m) { return m.trialId == trialId; });
        bracket.toResume.remove(trialId);
    }
    retired_.insert(trialId, reason);
    if (trialId == current) {
        *decision = SchedulerDecision::stop(reason);
    } else {
        stopOrders_.push_back({trialId, reason});
    }
}

SchedulerDecision HyperbandScheduler::process(int bracketIndex, const QString& current) {
    Bracket& bracket = brackets_[static_cast<std::size_t>(bracketIndex)];
    const double sign = options_.mode == MetricMode::Min ? -1.0 : 1.0;
    std::optional<SchedulerDecision> decision;
    for (;;) {
        if (bracket.finished || bracket.live.empty() || !rungDone(bracket)) {
            break;
        }
        // As Ray's, the first rung is judged once the bracket has all its trials: trials are
        // created as slots free up here, so the first to arrive must wait for the rest.
        const bool full = bracket.rung > 0 || static_cast<double>(bracket.assigned) >= bracket.n;
        if (!full && !searcherIdle_) {
            break;
        }
        if (bracket.rung == bracket.s) {
            if (!options_.stopLastTrials) {
                // Past the last rung everyone runs on until it finishes by itself.
                for (const Member& member : bracket.live) {
                    if (member.trialId == current) {
                        decision = SchedulerDecision::proceed();
                    } else {
                        bracket.toResume.insert(member.trialId);
                    }
                }
                break;
            }
            bracket.finished = true;
            const QString reason =
                QStringLiteral("hyperband: %1 reached its last rung (%2 = %3)")
                    .arg(bracketName(bracket), options_.timeAttr, formatNumber(bracket.milestone));
            const std::vector<Member> members = bracket.live;
            for (const Member& member : members) {
                retire(member.trialId, reason, current, &decision);
            }
            break;
        }

        // Ray sorts by the signed value, stably, and keeps the last n: among equal values the
        // trial added later is kept. A trial that never reported the metric ranks lowest.
        const double lowest = -std::numeric_limits<double>::infinity();
        std::vector<Member> ranked = bracket.live;
        std::stable_sort(ranked.begin(), ranked.end(), [&](const Member& a, const Member& b) {
            return a.value.value_or(lowest) < b.value.value_or(lowest);
        });
        const double keepCount = std::ceil(bracket.n / options_.reductionFactor);
        const std::size_t keep =
            std::min(ranked.size(), static_cast<std::size_t>(std::max(keepCount, 0.0)));
        const std::size_t firstGood = ranked.size() - keep;
        const int judgedRung = bracket.rung;
        const double judgedAt = bracket.milestone;
        halveOnce(bracket);

        const QString cutoff = keep > 0 && ranked[firstGood].value
                                   ? formatNumber(sign * *ranked[firstGood].value)
                                   : QStringLiteral("none");
        for (std::size_t i = 0; i < firstGood; ++i) {
            const Member& loser = ranked[i];
            const QString value =
                loser.value ? formatNumber(sign * *loser.value) : QStringLiteral("never reported");
            const QString reason =
                QStringLiteral(
                    "hyperband: %1 rung %2 (%3 = %4): %5 = %6 is not in the top 1/%7 (cutoff %8)")
                    .arg(bracketName(bracket))
                    .arg(judgedRung)
                    .arg(options_.timeAttr, formatNumber(judgedAt), options_.metric, value,
                         formatNumber(options_.reductionFactor), cutoff);
            retire(loser.trialId, reason, current, &decision);
        }
        for (std::size_t i = firstGood; i < ranked.size(); ++i) {
            const Member& winner = ranked[i];
            if (!keepsRunning(bracket, winner)) {
                continue;  // already past the new milestone: waits for the next judgement
            }
            if (winner.trialId == current) {
                decision = SchedulerDecision::proceed();
            } else {
                bracket.toResume.insert(winner.trialId);
            }
        }
    }
    if (decision) {
        return *decision;
    }
    const auto unassigned = std::max(0.0, std::ceil(bracket.n) - bracket.assigned);
    const auto behind =
        std::count_if(bracket.live.begin(), bracket.live.end(),
                      [&](const Member& m) { return !reachedMilestone(bracket, m); }) +
        (bracket.rung == 0 && !searcherIdle_ ? static_cast<std::ptrdiff_t>(unassigned) : 0);
    return SchedulerDecision::pause(
        QStringLiteral("hyperband: %1 rung %2: waiting for %3 to reach %4 = %5")
            .arg(bracketName(bracket))
            .arg(bracket.rung)
            .arg(counted(behind, "more trial"), options_.timeAttr,
                 formatNumber(bracket.milestone)));
}

void HyperbandScheduler::leave(const QString& trialId) {
    const auto it = trialBracket_.constFind(trialId);
    if (it == trialBracket_.constEnd() || retired_.contains(trialId)) {
        return;
    }
    const int index = it.value();
    Bracket& bracket = brackets_[static_cast<std::size_t>(index)];
    const auto before = bracket.live.size();
    std::erase_if(bracket.live, [&](const Member& m) { return m.trialId == trialId; });
    bracket.toResume.remove(trialId);
    if (bracket.live.size() != before) {
        process(index, QString());  // the rung may be complete without it
    }
}

void HyperbandScheduler::onComplete(const Trial& trial, const QJsonObject& lastResult) {
    (void)lastResult;
    leave(trial.id);
}

void HyperbandScheduler::onError(const Trial& trial) {
    leave(trial.id);
}

void HyperbandScheduler::onSearcherIdle() {
    if (searcherIdle_) {
        return;
    }
    searcherIdle_ = true;
    for (std::size_t i = 0; i < brackets_.size(); ++i) {
        process(static_cast<int>(i), QString());
    }
}

std::optional<QString> HyperbandScheduler::chooseTrialToRun(
    const std::vector<const Trial*>& waiting) {
    QMap<QString, TrialStatus> statusOf;
    std::optional<QString> endedButWaiting;
    for (const Trial* trial : waiting) {
        if (!trial) {
            continue;
        }
        statusOf.insert(trial->id, trial->status);
        // Ended by this scheduler but still waiting: its order met it while it was still
        // saving its pause checkpoint (RUNNING), and the runtime ends only waiting trials.
        // Order it again; if nothing else can run, run it: its next result stops it.
        if (const auto why = retired_.constFind(trial->id); why != retired_.constEnd()) {
            const bool queued =
                std::any_of(stopOrders_.begin(), stopOrders_.end(),
                            [&](const StopOrder& o) { return o.trialId == trial->id; });
            if (!queued) {
                stopOrders_.push_back({trial->id, why.value()});
            }
            endedButWaiting = endedButWaiting.value_or(trial->id);
        }
    }
    // Ray: band by band, brackets least complete first, trials in the order added. Trials that
    // won their rung go before new ones so a rung is finished before the next one is started.
    for (int band = 0; band <= band_; ++band) {
        std::vector<int> order;
        for (std::size_t i = 0; i < brackets_.size(); ++i) {
            if (brackets_[i].band == band) {
                order.push_back(static_cast<int>(i));
            }
        }
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return completion(brackets_[static_cast<std::size_t>(a)]) <
                   completion(brackets_[static_cast<std::size_t>(b)]);
        });
        for (int index : order) {
            const Bracket& bracket = brackets_[static_cast<std::size_t>(index)];
            for (const Member& member : bracket.live) {
                if (bracket.toResume.contains(member.trialId) &&
                    statusOf.contains(member.trialId)) {
                    return member.trialId;
                }
            }
            for (const Member& member : bracket.live) {
                if (statusOf.value(member.trialId, TrialStatus::Running) == TrialStatus::Pending) {
                    return member.trialId;
                }
            }
        }
    }
    // Trials this scheduler never saw (added before it was chosen) run first come, first served.
    for (const Trial* trial : waiting) {
        if (trial && !trialBracket_.contains(trial->id)) {
            return trial->id;
        }
    }
    return endedButWaiting;
}

std::optional<QString> HyperbandScheduler::endReached(const QJsonObject& result) const {
    const auto time = finiteNumberAt(result, options_.timeAttr);
    if (!time || *time < options_.maxT) {
        return std::nullopt;
    }
    return QStringLiteral("hyperband: %1 reached max_t (%2)")
        .arg(options_.timeAttr, formatNumber(options_.maxT));
}

std::vector<StopOrder> HyperbandScheduler::takeStopOrders() {
    return std::exchange(stopOrders_, {});
}

std::vector<std::pair<QString, QString>> HyperbandScheduler::requiredResultKeys() const {
    return {{options_.timeAttr, QStringLiteral("scheduler.time_attr")}};
}

QJsonObject HyperbandScheduler::saveState() const {
    QJsonArray brackets;
    for (const Bracket& bracket : brackets_) {
        QJsonArray live;
        for (const Member& member : bracket.live) {
            live.append(QJsonObject{{"trial", member.trialId},
                                    {"time", optionalNumber(member.time)},
                                    {"value", optionalNumber(member.value)}});
        }
        QStringList resume(bracket.toResume.begin(), bracket.toResume.end());
        resume.sort();
        brackets.append(QJsonObject{{"s", bracket.s},
                                    {"band", bracket.band},
                                    {"rung", bracket.rung},
                                    {"progress", bracket.progress},
                                    {"assigned", bracket.assigned},
                                    {"finished", bracket.finished},
                                    {"live", live},
                                    {"resume", QJsonArray::fromStringList(resume)}});
    }
    QJsonObject trials;
    for (auto it = trialBracket_.cbegin(); it != trialBracket_.cend(); ++it) {
        trials.insert(it.key(), it.value());
    }
    QJsonObject retired;
    for (auto it = retired_.cbegin(); it != retired_.cend(); ++it) {
        retired.insert(it.key(), it.value());
    }
    QJsonArray orders;
    for (const StopOrder& order : stopOrders_) {
        orders.append(QJsonObject{{"trial", order.trialId}, {"reason", order.reason}});
    }
    return {{"brackets", brackets},       {"current", currentBracket_}, {"band", band_},
            {"band_length", bandLength_}, {"trials", trials},           {"retired", retired},
            {"stop_orders", orders}};
}

Status HyperbandScheduler::restoreState(const QJsonObject& state) {
    if (state.isEmpty()) {
        return Status::ok();  // nothing saved yet
    }
    const auto corrupt = [](const QString& what) {
        return Status::corruption(QStringLiteral("hyperband state: %1").arg(what));
    };
    std::vector<Bracket> brackets;
    for (const QJsonValue& item : state.value("brackets").toArray()) {
        const QJsonObject saved = item.toObject();
        const int s = saved.value("s").toInt(-1);
        const int rung = saved.value("rung").toInt(-1);
        if (s < 0 || s >= sMax1_ || rung < 0 || rung > s) {
            return corrupt(QStringLiteral("a bracket does not fit max_t and reduction_factor"));
        }
        Bracket bracket = freshBracket(s, saved.value("band").toInt());
        while (bracket.rung < rung) {
            halveOnce(bracket);
        }
        bracket.progress = saved.value("progress").toDouble();
        bracket.assigned = saved.value("assigned").toInt();
        bracket.finished = saved.value("finished").toBool();
        for (const QJsonValue& m : saved.value("live").toArray()) {
            const QJsonObject member = m.toObject();
            bracket.live.push_back({member.value("trial").toString(),
                                    numberOrNothing(member.value("time")),
                                    numberOrNothing(member.value("value"))});
        }
        for (const QJsonValue& id : saved.value("resume").toArray()) {
            bracket.toResume.insert(id.toString());
        }
        brackets.push_back(std::move(bracket));
    }
    const int count = static_cast<int>(brackets.size());
    QMap<QString, int> trialBracket;
    const QJsonObject trials = state.value("trials").toObject();
    for (auto it = trials.begin(); it != trials.end(); ++it) {
        const int index = it.value().toInt(-1);
        if (index < 0 || index >= count) {
            return corrupt(QStringLiteral("trial %1 is in no bracket").arg(it.key()));
        }
        trialBracket.insert(it.key(), index);
    }
    const int current = state.value("current").toInt(-1);
    if (current < -1 || current >= count) {
        return corrupt(QStringLiteral("the bracket taking new trials does not exist"));
    }
    QMap<QString, QString> retired;
    const QJsonObject savedRetired = state.value("retired").toObject();
    for (auto it = savedRetired.begin(); it != savedRetired.end(); ++it) {
        retired.insert(it.key(), it.value().toString());
    }
    std::vector<StopOrder> orders;
    for (const QJsonValue& item : state.value("stop_orders").toArray()) {
        const QJsonObject order = item.toObject();
        orders.push_back({order.value("trial").toString(), order.value("reason").toString()});
    }
    brackets_ = std::move(brackets);
    trialBracket_ = std::move(trialBracket);
    retired_ = std::move(retired);
    stopOrders_ = std::move(orders);
    currentBracket_ = current;
    band_ = std::max(0, state.value("band").toInt());
    bandLength_ = std::clamp(state.value("band_length").toInt(), 0, sMax1_);
    return Status::ok();
}

}  // namespace tunedeck
