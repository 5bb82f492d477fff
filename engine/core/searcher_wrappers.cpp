#include "core/searcher_wrappers.h"

#include <QJsonArray>
#include <cmath>
#include <map>
#include <set>

#include "core/scheduler_options.h"

namespace tunedeck {

namespace {

QJsonArray idsToJson(const std::set<QString>& ids) {
    QJsonArray array;
    for (const QString& id : ids) {
        array.append(id);
    }
    return array;
}

std::set<QString> idsFromJson(const QJsonValue& value) {
    std::set<QString> ids;
    for (const auto& id : value.toArray()) {
        ids.insert(id.toString());
    }
    return ids;
}

class ConcurrencyLimiter final : public Searcher {
  public:
    ConcurrencyLimiter(std::unique_ptr<Searcher> inner, int maxConcurrent)
        : inner_(std::move(inner)), max_(maxConcurrent) {}

    Suggestion suggest(const QString& trialId) override {
        if (static_cast<int>(live_.size()) >= max_) {
            return Suggestion::wait();
        }
        Suggestion suggestion = inner_->suggest(trialId);
        if (suggestion.kind == Suggestion::Kind::Config) {
            live_.insert(trialId);
        }
        return suggestion;
    }
    void onResult(const QString& trialId, const QJsonObject& result) override {
        inner_->onResult(trialId, result);
    }
    void onComplete(const QString& trialId, const QJsonObject& lastResult, bool errored) override {
        live_.erase(trialId);
        inner_->onComplete(trialId, lastResult, errored);
    }
    void onTrialRecovered(std::int64_t index, const QString& trialId,
                          const QJsonObject& config) override {
        live_.insert(trialId);  // the replay's onComplete takes the finished ones out again
        inner_->onTrialRecovered(index, trialId, config);
    }
    std::optional<std::int64_t> totalTrials() const override { return inner_->totalTrials(); }
    Status suggestParameter(std::int64_t index, const QString& trialId, const QJsonObject& config,
                            const QString& name, const SuggestedDistribution& distribution,
                            QJsonValue* value) override {
        return inner_->suggestParameter(index, trialId, config, name, distribution, value);
    }

    QJsonObject saveState() const override {
        return {{QStringLiteral("wrapper"), QStringLiteral("max_concurrent")},
                {QStringLiteral("live"), idsToJson(live_)},
                {QStringLiteral("inner"), inner_->saveState()}};
    }
    Status restoreState(const QJsonObject& state) override {
        if (state.value(QStringLiteral("wrapper")).toString() != QStringLiteral("max_concurrent")) {
            return Status::invalid(
                QStringLiteral("searcher state was saved without max_concurrent"));
        }
        live_ = idsFromJson(state.value(QStringLiteral("live")));
        return inner_->restoreState(state.value(QStringLiteral("inner")).toObject());
    }

  private:
    std::unique_ptr<Searcher> inner_;
    int max_;
    std::set<QString> live_;
};

// One config evaluated by `repeat` trials; the inner searcher knows it by the first trial's id.
struct Group {
    QString innerId;
    QJsonObject config;
    std::map<QString, QJsonObject> finished;  // trial id -> last result ({} when errored)
    std::set<QString> errored;
};

class Repeater final : public Searcher {
  public:
    Repeater(std::unique_ptr<Searcher> inner, int repeat, QStringList metrics)
        : inner_(std::move(inner)), repeat_(repeat), metrics_(std::move(metrics)) {}

    Suggestion suggest(const QString& trialId) override {
        const std::int64_t group = next_ / repeat_;
        const int member = static_cast<int>(next_ % repeat_);
        if (member == 0) {
            Suggestion suggestion = inner_->suggest(trialId);
            if (suggestion.kind != Suggestion::Kind::Config) {
                return suggestion;
            }
            groups_[group] = Group{trialId, suggestion.config, {}, {}};
        }
        Group& g = groups_[group];
        memberOf_[trialId] = group;
        ++next_;
        QJsonObject config = g.config;
        config.insert(kTrialIndexKey, member);
        return Suggestion::of(config);
    }

    void onResult(const QString& trialId, const QJsonObject& result) override {
        // The inner searcher sees the first member's curve (bohb's partial results).
        auto it = memberOf_.find(trialId);
        if (it != memberOf_.end() && groups_[it->second].innerId == trialId) {
            inner_->onResult(trialId, result);
        }
    }

    void onComplete(const QString& trialId, const QJsonObject& lastResult, bool errored) override {
        auto it = memberOf_.find(trialId);
        if (it == memberOf_.end()) {
            return;
        }
        Group& g = groups_[it->second];
        if (g.finished.count(trialId)) {
            return;  // a replay on resume
        }
        g.finished[trialId] = lastResult;
        if (errored) {
            g.errored.insert(trialId);
        }
        if (static_cast<int>(g.finished.size()) == repeat_) {
            tellInner(g);
        }
    }

    void onTrialRecovered(std::int64_t index, const QString& trialId,
                          const QJsonObject& config) override {
        if (memberOf_.count(trialId)) {
            return;
        }
        const std::int64_t group = index / repeat_;
        QJsonObject plain = config;
        plain.remove(kTrialIndexKey);
        if (!groups_.count(group)) {
            groups_[group] = Group{trialId, plain, {}, {}};
            inner_->onTrialRecovered(group, trialId, plain);
        }
        memberOf_[trialId] = group;
        next_ = std::max(next_, index + 1);
    }

    std::optional<std::int64_t> totalTrials() const override {
        const auto inner = inner_->totalTrials();
        return inner ? std::optional<std::int64_t>(*inner * repeat_) : std::nullopt;
    }

    QJsonObject saveState() const override {
        QJsonArray groups;
        for (const auto& [index, g] : groups_) {
            QJsonObject finished;
            for (const auto& [id, result] : g.finished) {
                finished.insert(id,
                                QJsonObject{{QStringLiteral("result"), result},
                                            {QStringLiteral("errored"), g.errored.count(id) > 0}});
            }
            QJsonArray members;
            for (const auto& [id, group] : memberOf_) {
                if (group == index) {
                    members.append(id);
                }
            }
            groups.append(QJsonObject{{QStringLiteral("index"), QJsonValue(qint64(index))},
                                      {QStringLiteral("inner_id"), g.innerId},
                                      {QStringLiteral("config"), g.config},
                                      {QStringLiteral("members"), members},
                                      {QStringLiteral("finished"), finished}});
        }
        return {{QStringLiteral("wrapper"), QStringLiteral("repeat")},
                {QStringLiteral("next"), QJsonValue(qint64(next_))},
                {QStringLiteral("groups"), groups},
                {QStringLiteral("inner"), inner_->saveState()}};
    }

    Status restoreState(const QJsonObject& state) override {
        if (state.value(QStringLiteral("wrapper")).toString() != QStringLiteral("repeat")) {
            return Status::invalid(QStringLiteral("searcher state was saved without repeat"));
        }
        next_ = state.value(QStringLiteral("next")).toInteger();
        groups_.clear();
        memberOf_.clear();
        for (const auto& item : state.value(QStringLiteral("groups")).toArray()) {
            const QJsonObject object = item.toObject();
            const std::int64_t index = object.value(QStringLiteral("index")).toInteger();
            Group g{object.value(QStringLiteral("inner_id")).toString(),
                    object.value(QStringLiteral("config")).toObject(),
                    {},
                    {}};
            const QJsonObject finished = object.value(QStringLiteral("finished")).toObject();
            for (auto it = finished.begin(); it != finished.end(); ++it) {
                const QJsonObject entry = it.value().toObject();
                g.finished[it.key()] = entry.value(QStringLiteral("result")).toObject();
                if (entry.value(QStringLiteral("errored")).toBool()) {
                    g.errored.insert(it.key());
                }
            }
            for (const auto& id : object.value(QStringLiteral("members")).toArray()) {
                memberOf_[id.toString()] = index;
            }
            groups_[index] = std::move(g);
        }
        return inner_->restoreState(state.value(QStringLiteral("inner")).toObject());
    }

  private:
    // Ray's Repeater: the mean of each metric over the members that reported it.
    void tellInner(const Group& g) {
        QJsonObject mean;
        bool any = false;
        for (const QString& metric : metrics_) {
            double sum = 0;
            int count = 0;
            for (const auto& [id, result] : g.finished) {
                if (g.errored.count(id)) {
                    continue;
                }
                if (auto value = scheduler_options::finiteNumberAt(result, metric)) {
                    sum += *value;
                    ++count;
                }
            }
            if (count > 0) {
                mean.insert(metric, sum / count);
                any = true;
            }
        }
        inner_->onComplete(g.innerId, mean, !any);
    }

    std::unique_ptr<Searcher> inner_;
    int repeat_;
    QStringList metrics_;
    std::int64_t next_ = 0;
    std::map<std::int64_t, Group> groups_;
    std::map<QString, std::int64_t> memberOf_;
};

}  // namespace

std::unique_ptr<Searcher> limitConcurrency(std::unique_ptr<Searcher> inner, int maxConcurrent) {
    return std::make_unique<ConcurrencyLimiter>(std::move(inner), maxConcurrent);
}

std::unique_ptr<Searcher> repeatEach(std::unique_ptr<Searcher> inner, int repeat,
                                     QStringList metrics) {
    return std::make_unique<Repeater>(std::move(inner), repeat, std::move(metrics));
}

namespace {

class OpenEnded final : public Searcher {
  public:
    explicit OpenEnded(std::unique_ptr<Searcher> inner) : inner_(std::move(inner)) {}
    Suggestion suggest(const QString& trialId) override { return inner_->suggest(trialId); }
    void onResult(const QString& trialId, const QJsonObject& result) override {
        inner_->onResult(trialId, result);
    }
    void onComplete(const QString& trialId, const QJsonObject& lastResult, bool errored) override {
        inner_->onComplete(trialId, lastResult, errored);
    }
    void onTrialRecovered(std::int64_t index, const QString& trialId,
                          const QJsonObject& config) override {
        inner_->onTrialRecovered(index, trialId, config);
    }
    Status suggestParameter(std::int64_t index, const QString& trialId, const QJsonObject& config,
                            const QString& name, const SuggestedDistribution& distribution,
                            QJsonValue* value) override {
        return inner_->suggestParameter(index, trialId, config, name, distribution, value);
    }
    QJsonObject saveState() const override { return inner_->saveState(); }
    Status restoreState(const QJsonObject& state) override { return inner_->restoreState(state); }

  private:
    std::unique_ptr<Searcher> inner_;
};

}  // namespace

std::unique_ptr<Searcher> withoutEnd(std::unique_ptr<Searcher> inner) {
    return std::make_unique<OpenEnded>(std::move(inner));
}

}  // namespace tunedeck
