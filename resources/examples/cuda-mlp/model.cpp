#include "model.h"

#include <cmath>
#include <utility>

namespace tunedeck::mlp {

namespace {

// SplitMix64 (Steele, Lea and Flood): tiny, fast and identical on every platform, unlike the
// distributions of <random>, whose results the standard leaves to each library.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // A float in [0, 1) from the top 24 bits: exactly representable.
    float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }

  private:
    std::uint64_t state_;
};

// Separate streams for the weights and for each epoch's shuffle.
constexpr std::uint64_t kInitStream = 0x1d1b0c5e2a7f3b19ull;
constexpr std::uint64_t kShuffleStream = 0x6a09e667f3bcc909ull;

}  // namespace

std::size_t Shape::weightOffset(int layer) const {
    std::size_t offset = 0;
    for (int l = 0; l < layer; ++l) {
        offset += static_cast<std::size_t>(fanIn(l)) * fanOut(l);
    }
    return offset;
}

std::size_t Shape::biasOffset(int layer) const {
    std::size_t offset = weightCount();
    for (int l = 0; l < layer; ++l) {
        offset += static_cast<std::size_t>(fanOut(l));
    }
    return offset;
}

std::size_t Shape::weightCount() const {
    return weightOffset(layers());
}

std::size_t Shape::parameterCount() const {
    return biasOffset(layers());
}

AdamStep adamStep(const Hyperparameters& hp, long long step) {
    const double t = static_cast<double>(step);
    AdamStep s;
    s.learningRate = static_cast<float>(hp.learningRate);
    s.weightDecay = static_cast<float>(hp.weightDecay);
    s.correction1 = static_cast<float>(1.0 / (1.0 - std::pow(double{AdamConstants::beta1}, t)));
    s.correction2 = static_cast<float>(1.0 / (1.0 - std::pow(double{AdamConstants::beta2}, t)));
    return s;
}

TrainingState initialState(const Shape& shape, std::uint64_t seed) {
    TrainingState state;
    state.shape = shape;
    const std::size_t count = shape.parameterCount();
    state.parameters.assign(count, 0.0f);
    state.firstMoment.assign(count, 0.0f);
    state.secondMoment.assign(count, 0.0f);
    SplitMix64 random(seed ^ kInitStream);
    for (int l = 0; l < shape.layers(); ++l) {
        const float bound = static_cast<float>(std::sqrt(6.0 / shape.fanIn(l)));
        const std::size_t begin = shape.weightOffset(l);
        const std::size_t end = begin + static_cast<std::size_t>(shape.fanIn(l)) * shape.fanOut(l);
        for (std::size_t i = begin; i < end; ++i) {
            state.parameters[i] = (2.0f * random.unit() - 1.0f) * bound;
        }
    }
    return state;
}

std::vector<int> epochOrder(int rows, std::uint64_t seed, long long epoch) {
    std::vector<int> order(static_cast<std::size_t>(rows));
    for (int i = 0; i < rows; ++i) {
        order[static_cast<std::size_t>(i)] = i;
    }
    SplitMix64 random(seed ^ kShuffleStream ^
                      (static_cast<std::uint64_t>(epoch) * 0xD1B54A32D192ED03ull));
    for (int i = rows - 1; i > 0; --i) {  // Fisher-Yates
        const auto j = static_cast<int>(random.next() % static_cast<std::uint64_t>(i + 1));
        std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
    }
    return order;
}

int batchCount(int rows, int batchSize) {
    return (rows + batchSize - 1) / batchSize;
}

}  // namespace tunedeck::mlp
