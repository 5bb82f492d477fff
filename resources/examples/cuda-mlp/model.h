// The model of the example, shared by its CPU and CUDA paths: a multilayer perceptron (`depth`
// hidden layers of `width` ReLU units, then a softmax over the classes) trained with AdamW on
// mini-batches. What is here fixes the math both paths must agree on: the parameter layout,
// the initialisation, the order of the samples in each epoch and the optimizer's constants.
// Plain values and pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tunedeck::mlp {

// The layers' sizes. Layer l maps fanIn(l) inputs to fanOut(l) outputs; there are depth + 1.
struct Shape {
    int inputs = 0;
    int width = 0;
    int depth = 0;  // hidden layers; 0 is multinomial logistic regression
    int classes = 0;

    int layers() const { return depth + 1; }
    int fanIn(int layer) const { return layer == 0 ? inputs : width; }
    int fanOut(int layer) const { return layer == depth ? classes : width; }
    // The parameters are one flat vector: every layer's weights (fanIn x fanOut, row-major, so a
    // layer computes X * W), then every layer's biases. Weight decay applies to the weights, the
    // prefix [0, weightCount()); one optimizer pass covers the whole vector.
    std::size_t weightOffset(int layer) const;
    std::size_t biasOffset(int layer) const;
    std::size_t weightCount() const;
    std::size_t parameterCount() const;
    // Written out: the headers the .cu includes stay C++17, which every nvcc and CMake accept.
    bool operator==(const Shape& o) const {
        return inputs == o.inputs && width == o.width && depth == o.depth && classes == o.classes;
    }
};

// The hyperparameters of a trial.
struct Hyperparameters {
    double learningRate = 1e-3;
    int batchSize = 64;
    int width = 128;
    int depth = 2;
    double weightDecay = 1e-4;
    std::uint64_t seed = 0;
};

// AdamW (Loshchilov and Hutter): Adam's moments with the weight decay applied to the weights
// directly, not through the gradient, so the decay does not depend on the gradient's scale.
struct AdamConstants {
    static constexpr float beta1 = 0.9f;
    static constexpr float beta2 = 0.999f;
    static constexpr float epsilon = 1e-8f;
};

// The factors of Adam's bias correction at step `step` (1-based), 1 / (1 - beta^step), computed
// once per step in double on the host and handed to either path as floats.
struct AdamStep {
    float learningRate = 0;
    float weightDecay = 0;
    float correction1 = 0;
    float correction2 = 0;
};
AdamStep adamStep(const Hyperparameters& hp, long long step);

// Everything needed to continue training exactly where it stopped: what a checkpoint holds.
struct TrainingState {
    Shape shape;
    long long epoch = 0;  // epochs completed
    long long step = 0;   // optimizer steps taken (Adam's t)
    std::vector<float> parameters;
    std::vector<float> firstMoment;   // Adam's m
    std::vector<float> secondMoment;  // Adam's v
};

// A fresh model: weights uniform in +-sqrt(6 / fanIn) (He initialisation for ReLU), biases and
// moments zero, all drawn from `seed` alone.
TrainingState initialState(const Shape& shape, std::uint64_t seed);

// The order of the training rows in epoch `epoch` (0-based): a shuffle drawn from the seed and
// the epoch number only, so a run restored at any epoch sees the same orders as one that never
// stopped, and the checkpoint needs no random-generator state.
std::vector<int> epochOrder(int rows, std::uint64_t seed, long long epoch);

// The number of mini-batches of an epoch; the last one holds the remainder.
int batchCount(int rows, int batchSize);

}  // namespace tunedeck::mlp
