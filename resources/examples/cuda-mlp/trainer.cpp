#include "trainer.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tunedeck::mlp {

namespace {

constexpr int kMaxDepth = 16;
constexpr int kMaxWidth = 8192;
constexpr int kMaxBatch = 65536;

std::string describe(const Shape& s) {
    return "width " + std::to_string(s.width) + ", depth " + std::to_string(s.depth) + ", " +
           std::to_string(s.inputs) + " inputs, " + std::to_string(s.classes) + " classes";
}

}  // namespace

void checkHyperparameters(const Hyperparameters& hp) {
    if (!(hp.learningRate > 0) || !std::isfinite(hp.learningRate)) {
        throw std::invalid_argument("lr must be a positive number");
    }
    if (hp.batchSize < 1 || hp.batchSize > kMaxBatch) {
        throw std::invalid_argument("batch_size must be from 1 to " + std::to_string(kMaxBatch));
    }
    if (hp.width < 1 || hp.width > kMaxWidth) {
        throw std::invalid_argument("width must be from 1 to " + std::to_string(kMaxWidth));
    }
    if (hp.depth < 0 || hp.depth > kMaxDepth) {
        throw std::invalid_argument("depth must be from 0 to " + std::to_string(kMaxDepth));
    }
    if (!(hp.weightDecay >= 0) || !std::isfinite(hp.weightDecay)) {
        throw std::invalid_argument("weight_decay must be a number >= 0");
    }
}

Shape shapeFor(const Hyperparameters& hp, const DigitsSplit& data) {
    return {data.train.features, hp.width, hp.depth, data.classes};
}

Trainer::Trainer(const DigitsSplit& data, const Hyperparameters& hp,
                 std::unique_ptr<Backend> backend)
    : hp_(hp),
      shape_(shapeFor(hp, data)),
      trainRows_(data.train.rows()),
      backend_(std::move(backend)) {
    backend_->load(initialState(shape_, hp_.seed));
}

void Trainer::restore(const TrainingState& state) {
    if (!(state.shape == shape_)) {
        throw std::runtime_error("the checkpoint holds a model of " + describe(state.shape) +
                                 "; this trial's config asks for " + describe(shape_));
    }
    backend_->load(state);
    epoch_ = state.epoch;
    step_ = state.step;
}

TrainingState Trainer::state() const {
    TrainingState state;
    state.shape = shape_;
    state.epoch = epoch_;
    state.step = step_;
    backend_->store(state);
    return state;
}

EpochResult Trainer::trainEpoch() {
    const std::vector<int> order = epochOrder(trainRows_, hp_.seed, epoch_);
    const auto start = std::chrono::steady_clock::now();
    EpochResult result;
    result.trainLoss = backend_->trainEpoch(order, hp_, step_);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.samplesPerSecond = result.seconds > 0 ? trainRows_ / result.seconds : 0;
    const Evaluation evaluation = backend_->evaluate();
    result.validationLoss = evaluation.loss;
    result.validationAccuracy = evaluation.accuracy;
    result.epoch = ++epoch_;
    return result;
}

}  // namespace tunedeck::mlp
