#include "analysis/random_forest.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace tunedeck::app {

namespace {

// Below this variance a node is pure; relative to the targets' scale so that metrics of 1e5 and
// of 1e-5 both stop where their noise ends.
constexpr double kPureVariance = 1e-12;

// SplitMix64: a tiny generator whose output is the same with every standard library, unlike
// std::uniform_int_distribution, so a seed means the same forest everywhere.
class SplitMix {
  public:
    explicit SplitMix(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return int(next() % std::uint64_t(n)); }

  private:
    std::uint64_t state_;
};

}  // namespace

// Grows one tree on a bootstrap sample. Each feature keeps the in-bag samples sorted by its
// value, and a node is the same range [begin, end) in every feature's order; a split partitions
// each range stably, so no node sorts anything (scikit-learn's former "presort").
class RandomForest::Grower {
  public:
    Grower(const RandomForest& forest, const std::vector<std::vector<int>>& sorted, int treeIndex)
        : forest_(forest), rng_(forest.options_.seed ^ (0xd1b54a32d192ed03ULL * (treeIndex + 1))) {
        const int n = int(forest.samples_.size());
        weight_.assign(std::size_t(n), 0.0);
        for (int i = 0; i < n; ++i) {
            weight_[std::size_t(rng_.below(n))] += 1.0;
        }
        order_.resize(sorted.size());
        for (std::size_t f = 0; f < sorted.size(); ++f) {
            for (int i : sorted[f]) {
                if (weight_[std::size_t(i)] > 0) {
                    order_[f].push_back(i);
                }
            }
        }
        goesLeft_.assign(std::size_t(n), 0);
        candidates_.resize(sorted.size());
        std::iota(candidates_.begin(), candidates_.end(), 0);
    }

    Tree grow() {
        Tree tree;
        tree.importance.assign(std::size_t(forest_.features_), 0.0);
        struct Pending {
            int node, begin, end, depth;
        };
        std::vector<Pending> stack;
        tree.nodes.emplace_back();
        stack.push_back({0, 0, int(order_.empty() ? 0 : order_[0].size()), 0});
        while (!stack.empty()) {
            const Pending at = stack.back();
            stack.pop_back();
            const Split split = bestSplit(at.begin, at.end, at.depth);
            tree.nodes[std::size_t(at.node)].value = split.mean;
            if (split.feature < 0) {
                continue;
            }
            tree.importance[std::size_t(split.feature)] += split.gain;
            partition(split, at.begin, at.end);
            const int left = int(tree.nodes.size());
            tree.nodes.emplace_back();
            tree.nodes.emplace_back();
            Node& node = tree.nodes[std::size_t(at.node)];
            node.feature = split.feature;
            node.threshold = split.threshold;
            node.left = left;
            node.right = left + 1;
            stack.push_back({left + 1, split.position, at.end, at.depth + 1});
            stack.push_back({left, at.begin, split.position, at.depth + 1});
        }
        const double total = std::accumulate(tree.importance.begin(), tree.importance.end(), 0.0);
        for (double& value : tree.importance) {
            value = total > 0 ? value / total : 0.0;
        }
        return tree;
    }

  private:
    struct Split {
        double mean = 0;
        int feature = -1;
        int position = 0;  // the first sample of the right child in the feature's order
        double threshold = 0;
        double gain = 0;  // weighted variance reduction, scikit-learn's impurity improvement
    };

    double x(int sample, int feature) const {
        return forest_.samples_[std::size_t(sample)][std::size_t(feature)];
    }
    double y(int sample) const { return forest_.targets_[std::size_t(sample)]; }

    Split bestSplit(int begin, int end, int depth) {
        const ForestOptions& options = forest_.options_;
        const std::vector<int>& any = order_[0];
        double w = 0, s = 0, q = 0;
        for (int k = begin; k < end; ++k) {
            const int i = any[std::size_t(k)];
            const double wi = weight_[std::size_t(i)];
            w += wi;
            s += wi * y(i);
            q += wi * y(i) * y(i);
        }
        Split best;
        best.mean = w > 0 ? s / w : 0.0;
        const int count = end - begin;
        const double variance = w > 0 ? q / w - best.mean * best.mean : 0.0;
        if (depth >= options.maxDepth || count < options.minSamplesSplit ||
            count < 2 * options.minSamplesLeaf ||
            variance <= kPureVariance * forest_.targetScale_) {
            return best;
        }
        // Features in a fresh random order: a draw of maxFeatures of them, and ties between
        // equally good splits go to a random feature rather than always the first.
        const int features = int(candidates_.size());
        const int tried =
            options.maxFeatures > 0 ? std::min(options.maxFeatures, features) : features;
        for (int k = 0; k < tried; ++k) {
            std::swap(candidates_[std::size_t(k)],
                      candidates_[std::size_t(k + rng_.below(features - k))]);
        }
        const double parent = s * s / w;
        double bestProxy = parent;
        for (int k = 0; k < tried; ++k) {
            const int f = candidates_[std::size_t(k)];
            const std::vector<int>& order = order_[std::size_t(f)];
            double wl = 0, sl = 0;
            for (int p = begin; p + 1 < end; ++p) {
                const int i = order[std::size_t(p)];
                wl += weight_[std::size_t(i)];
                sl += weight_[std::size_t(i)] * y(i);
                const int leftCount = p + 1 - begin;
                if (leftCount < options.minSamplesLeaf) {
                    continue;
                }
                if (end - begin - leftCount < options.minSamplesLeaf) {
                    break;
                }
                const double here = x(i, f);
                const double next = x(order[std::size_t(p + 1)], f);
                if (!(next > here)) {
                    continue;
                }
                const double wr = w - wl;
                const double sr = s - sl;
                const double proxy = sl * sl / wl + sr * sr / wr;
                if (proxy > bestProxy * (1 + 1e-12) + 1e-300) {
                    bestProxy = proxy;
                    best.feature = f;
                    best.position = p + 1;
                    const double middle = here + (next - here) / 2;
                    best.threshold = middle < next ? middle : here;
                }
            }
        }
        best.gain = bestProxy - parent;
        return best;
    }

    void partition(const Split& split, int begin, int end) {
        const std::vector<int>& chosen = order_[std::size_t(split.feature)];
        for (int k = begin; k < end; ++k) {
            goesLeft_[std::size_t(chosen[std::size_t(k)])] = k < split.position ? 1 : 0;
        }
        for (std::size_t f = 0; f < order_.size(); ++f) {
            if (int(f) == split.feature) {
                continue;
            }
            std::vector<int>& order = order_[f];
            scratch_.clear();
            int write = begin;
            for (int k = begin; k < end; ++k) {
                const int i = order[std::size_t(k)];
                if (goesLeft_[std::size_t(i)]) {
                    order[std::size_t(write++)] = i;
                } else {
                    scratch_.push_back(i);
                }
            }
            std::copy(scratch_.begin(), scratch_.end(), order.begin() + write);
        }
    }

    const RandomForest& forest_;
    SplitMix rng_;
    std::vector<double> weight_;  // times each sample was drawn into the bootstrap
    std::vector<std::vector<int>> order_;
    std::vector<char> goesLeft_;
    std::vector<int> candidates_;
    std::vector<int> scratch_;
};

RandomForest::RandomForest(std::vector<std::vector<double>> samples, std::vector<double> targets,
                           ForestOptions options)
    : samples_(std::move(samples)), targets_(std::move(targets)), options_(options) {
    assert(samples_.size() == targets_.size());
    features_ = samples_.empty() ? 0 : int(samples_.front().size());
    for (std::vector<double>& row : samples_) {
        assert(int(row.size()) == features_);
        row.resize(std::size_t(features_));
        for (double& value : row) {
            if (std::isnan(value)) {
                value = -std::numeric_limits<double>::infinity();  // NaN would break the order
            }
        }
    }
    // Centred targets keep the sums of squares accurate for metrics far from zero.
    if (!targets_.empty()) {
        offset_ = std::accumulate(targets_.begin(), targets_.end(), 0.0) / double(targets_.size());
    }
    for (double& value : targets_) {
        value -= offset_;
        targetScale_ = std::max(targetScale_, value * value);
    }
    sorted_.resize(std::size_t(features_));
    for (int f = 0; f < features_; ++f) {
        std::vector<int>& order = sorted_[std::size_t(f)];
        order.resize(samples_.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            const double va = samples_[std::size_t(a)][std::size_t(f)];
            const double vb = samples_[std::size_t(b)][std::size_t(f)];
            return va < vb || (va == vb && a < b);
        });
    }
}

bool RandomForest::growTree() {
    if (finished()) {
        return false;
    }
    if (samples_.empty() || features_ == 0) {
        Tree tree;
        tree.nodes.emplace_back();
        tree.importance.assign(std::size_t(features_), 0.0);
        trees_.push_back(std::move(tree));
        return true;
    }
    Grower grower(*this, sorted_, treesGrown());
    trees_.push_back(grower.grow());
    return true;
}

void RandomForest::fit() {
    while (growTree()) {
    }
}

double RandomForest::predict(const std::vector<double>& sample) const {
    if (trees_.empty()) {
        return 0.0;
    }
    double sum = 0;
    for (const Tree& tree : trees_) {
        int at = 0;
        while (tree.nodes[std::size_t(at)].feature >= 0) {
            const Node& node = tree.nodes[std::size_t(at)];
            const double value =
                std::size_t(node.feature) < sample.size() ? sample[std::size_t(node.feature)] : 0.0;
            at = value <= node.threshold ? node.left : node.right;
        }
        sum += tree.nodes[std::size_t(at)].value;
    }
    return sum / double(trees_.size()) + offset_;
}

std::vector<double> RandomForest::importances() const {
    std::vector<double> mean(std::size_t(features_), 0.0);
    int splitting = 0;
    for (const Tree& tree : trees_) {
        if (tree.nodes.size() <= 1) {
            continue;  // scikit-learn leaves trees that are only a root out of the mean
        }
        ++splitting;
        for (int f = 0; f < features_; ++f) {
            mean[std::size_t(f)] += tree.importance[std::size_t(f)];
        }
    }
    const double total = std::accumulate(mean.begin(), mean.end(), 0.0);
    for (double& value : mean) {
        value = total > 0 ? value / total : 0.0;
    }
    return mean;
}

}  // namespace tunedeck::app
