// pbt's explore step: the config an exploiting trial goes on with after copying a better
// trial's checkpoint, and the PopulationExplorer interface through which pb2 (core/pb2_explore.h)
// brings its own. Pure functions and value types; an explorer is not thread-safe.
//
// Anchor: Ray Tune's PopulationBasedTraining (python/ray/tune/schedulers/pbt.py), whose
// behaviour users compare us against:
//  - explore (Ray's _explore), per mutation in the order written: with probability
//    resample_probability a new value is drawn from the mutation's domain; otherwise a list
//    (written as a choice) moves to the value left or right of the current one (staying put at
//    an end; a value not in the list is resampled), and a number is multiplied by one of
//    perturbation_factors. Ray leaves the product unbounded; here it is clamped to the
//    mutation's range (as some Ray 2.x releases did), rounded to the domain's q, and truncated for
//    integer domains (Ray's int()). A value that is not a number cannot be scaled: resampled.
//  - custom_explore: Ray takes a Python function, which a YAML file cannot hold; here it is a
//    mapping param -> [low, high] that the explored value is clamped into afterwards.
#pragma once

#include <QJsonObject>
#include <QString>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "core/search_space.h"
#include "core/status.h"

namespace tunedeck {

// How a population scheduler picks the config an exploiting trial continues with.
class PopulationExplorer {
  public:
    virtual ~PopulationExplorer() = default;
    // "pbt" / "pb2": names reasons and saved states.
    virtual QString name() const = 0;
    // `trialId` reached a perturbation point at `time` with `config` and `score` (higher is
    // better), before the population is ranked.
    virtual void recordScore(const QString& trialId, double time, const QJsonObject& config,
                             double score) {
        (void)trialId;
        (void)time;
        (void)config;
        (void)score;
    }
    // The config `trialId` goes on with after copying `sourceId`'s checkpoint.
    virtual QJsonObject explore(const QString& trialId, const QString& sourceId,
                                const QJsonObject& sourceConfig, Rng& rng) = 0;
    virtual QJsonObject saveState() const { return {}; }
    virtual Status restoreState(const QJsonObject& state) {
        (void)state;
        return Status::ok();
    }
};

// What pbt's explore does with a config (see the header comment).
struct PbtMutation {
    QString path;  // dotted
    Domain domain;
    bool integer = false;  // truncate perturbed values (integer domain here or in search_space)
};
struct PbtBound {
    QString path;
    double low = 0;
    double high = 0;
    bool integer = false;
};
struct PbtExploreOptions {
    std::vector<PbtMutation> mutations;
    double resampleProbability = 0.25;
    std::vector<double> perturbationFactors{1.2, 0.8};
    std::vector<PbtBound> customExplore;
};
QJsonObject pbtExplore(const QJsonObject& config, const PbtExploreOptions& options, Rng& rng);

class PbtMutationExplorer final : public PopulationExplorer {
  public:
    explicit PbtMutationExplorer(PbtExploreOptions options) : options_(std::move(options)) {}
    QString name() const override { return QStringLiteral("pbt"); }
    QJsonObject explore(const QString& trialId, const QString& sourceId,
                        const QJsonObject& sourceConfig, Rng& rng) override;

  private:
    PbtExploreOptions options_;
};

}  // namespace tunedeck
