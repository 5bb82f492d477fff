// A small random-forest regressor (bagged CART trees on variance reduction) for parameter
// importance: it reports each feature's mean decrease in impurity, as scikit-learn's
// `feature_importances_` and Optuna's MeanDecreaseImpurityImportanceEvaluator do. Pure and
// deterministic: the same samples, targets and seed give the same trees on every machine.
// Thread-safety: none; one forest per thread.
#pragma once

#include <cstdint>
#include <vector>

namespace tunedeck::app {

// Optuna's MeanDecreaseImpurity evaluator uses 64 trees of depth at most 64, splits of two
// samples and leaves of one, every feature tried at each split; these defaults follow it.
struct ForestOptions {
    int trees = 64;
    int maxDepth = 64;
    int minSamplesSplit = 2;
    int minSamplesLeaf = 1;
    // Features tried at each split, drawn at random; 0 tries all (then only the bootstrap
    // makes the trees differ, scikit-learn's default for regression).
    int maxFeatures = 0;
    std::uint64_t seed = 0;
};

class RandomForest {
  public:
    // `samples` holds one row of `features` values per target; rows of another length are a
    // caller's bug (asserted). Categorical features are expected one-hot encoded.
    RandomForest(std::vector<std::vector<double>> samples, std::vector<double> targets,
                 ForestOptions options = {});

    // Grows the next tree; false once all are grown. One tree at a time lets a GUI spread the
    // fit over several event-loop turns; the trees do not depend on how the work was split.
    bool growTree();
    void fit();
    int treesGrown() const { return int(trees_.size()); }
    bool finished() const { return treesGrown() >= options_.trees; }
    int features() const { return features_; }

    // The mean of the grown trees' predictions (0 before any tree is grown).
    double predict(const std::vector<double>& sample) const;
    // Per feature: the variance reduction of the splits on it, weighted by the samples reaching
    // them, normalised per tree, averaged over the trees that split at all, then normalised to
    // sum 1. All zero when no tree could split (constant targets).
    std::vector<double> importances() const;

  private:
    struct Node {
        int feature = -1;  // -1: a leaf
        double threshold = 0;
        int left = -1;
        int right = -1;
        double value = 0;
    };
    struct Tree {
        std::vector<Node> nodes;
        std::vector<double> importance;  // normalised to sum 1, or all zero
    };
    class Grower;

    std::vector<std::vector<double>> samples_;
    std::vector<double> targets_;  // centred: minus offset_
    double offset_ = 0;
    double targetScale_ = 0;  // the largest squared centred target
    ForestOptions options_;
    int features_ = 0;
    std::vector<std::vector<int>> sorted_;  // per feature, the samples by value
    std::vector<Tree> trees_;
};

}  // namespace tunedeck::app
