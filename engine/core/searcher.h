// Searchers propose configs (Ray Tune's Searcher / Optuna's sampler). Pure strategy objects:
// results in, configs out; randomness comes from the experiment seed; no clock, no I/O.
// Not thread-safe: the runtime calls them from its event loop only.
//
// Contract (the same for every algorithm, so the runtime has one path):
//  * suggest(trialId) is called when there is room for one more trial. It returns a config, or
//    Wait (nothing to propose until more results arrive), or Finished (the budget is spent).
//  * onResult / onComplete feed back what trials reported; `result` holds the raw metrics
//    plus the engine's fields (training_iteration, time_total_s, ...).
//  * saveState() captures everything needed so that, after restoreState() on a new object built
//    from the same spec (and the replay described at onTrialRecovered), the next suggestions
//    are those the original would have made.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "core/experiment_spec.h"
#include "core/status.h"
#include "core/suggested_distribution.h"

namespace tunedeck {

struct Suggestion {
    enum class Kind { Config, Wait, Finished };
    Kind kind = Kind::Finished;
    QJsonObject config;

    static Suggestion of(QJsonObject config) { return {Kind::Config, std::move(config)}; }
    static Suggestion wait() { return {Kind::Wait, {}}; }
    static Suggestion finished() { return {Kind::Finished, {}}; }
};

class Searcher {
  public:
    virtual ~Searcher() = default;

    virtual Suggestion suggest(const QString& trialId) = 0;
    virtual void onResult(const QString& trialId, const QJsonObject& result) {
        (void)trialId;
        (void)result;
    }
    // `errored`: the trial ended in ERROR; `lastResult` is empty when it never reported.
    virtual void onComplete(const QString& trialId, const QJsonObject& lastResult, bool errored) {
        (void)trialId;
        (void)lastResult;
        (void)errored;
    }
    // Resume. The saved state may be a little older than the history (the runtime saves it at
    // most about once a second), so after restoreState() the runtime replays the history:
    // every stored trial in creation order through onTrialRecovered (`index` is the trial's
    // creation index, which is also the index of the suggestion that made it), then every
    // finished trial in the order it finished through onComplete. Both must ignore what the
    // restored state already knows, so the replay is safe to apply to any state.
    virtual void onTrialRecovered(std::int64_t index, const QString& trialId,
                                  const QJsonObject& config) {
        (void)index;
        (void)trialId;
        (void)config;
    }
    // Define-by-run (Optuna's trial.suggest_*; the `suggest` line of engine/sdk/PROTOCOL.md): a
    // value of `distribution` for the parameter `name`, new to running trial `trialId` (the
    // `index`-th created), whose parameters so far are `config`. The space grows as trials ask.
    // The default refuses with the reason: a searcher that models a space fixed before the
    // trials start cannot answer.
    virtual Status suggestParameter(std::int64_t index, const QString& trialId,
                                    const QJsonObject& config, const QString& name,
                                    const SuggestedDistribution& distribution, QJsonValue* value);
    // Total trials this searcher will propose, when known (random/grid: num_samples x grid).
    virtual std::optional<std::int64_t> totalTrials() const { return std::nullopt; }

    virtual QJsonObject saveState() const = 0;
    virtual Status restoreState(const QJsonObject& state) = 0;
};

// The algorithm names `search.algorithm` accepts, for validation messages.
QStringList knownSearchers();
// The option keys `algorithm` takes (its own, then those every algorithm takes); empty for an
// unknown name.
QStringList searcherOptionNames(const QString& algorithm);
// Checks `spec.search` (name and options) against the space; the message names the bad key.
// Returns the location-free problem; engine/config prefixes the key's file:line:column.
Status validateSearcher(const ExperimentSpec& spec, QString* badKey);
// Builds the searcher for a validated spec.
std::unique_ptr<Searcher> makeSearcher(const ExperimentSpec& spec);

}  // namespace tunedeck
