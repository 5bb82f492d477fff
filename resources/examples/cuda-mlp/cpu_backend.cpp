// The CPU path: the templates of mlp_math.h in float, one thread.
#include <algorithm>

#include "backend.h"
#include "mlp_math.h"

namespace tunedeck::mlp {

namespace {

class CpuBackend : public Backend {
  public:
    CpuBackend(const DigitsSplit& data, const Shape& shape, int batchSize)
        : data_(data), shape_(shape) {
        batchX_.reserve(static_cast<std::size_t>(batchSize) * shape.inputs);
        batchLabels_.reserve(static_cast<std::size_t>(batchSize));
        gradient_.resize(shape.parameterCount());
    }

    std::string device() const override { return "cpu"; }

    void load(const TrainingState& state) override {
        parameters_ = state.parameters;
        m_ = state.firstMoment;
        v_ = state.secondMoment;
    }

    void store(TrainingState& state) const override {
        state.parameters = parameters_;
        state.firstMoment = m_;
        state.secondMoment = v_;
    }

    double trainEpoch(const std::vector<int>& order, const Hyperparameters& hp,
                      long long& step) override {
        const Samples& train = data_.train;
        const int rows = static_cast<int>(order.size());
        const int features = train.features;
        double lossSum = 0;
        for (int start = 0; start < rows; start += hp.batchSize) {
            const int count = std::min(hp.batchSize, rows - start);
            batchX_.resize(static_cast<std::size_t>(count) * features);
            batchLabels_.resize(static_cast<std::size_t>(count));
            for (int i = 0; i < count; ++i) {
                const int row = order[static_cast<std::size_t>(start + i)];
                std::copy_n(train.x.begin() + static_cast<long>(row) * features, features,
                            batchX_.begin() + static_cast<long>(i) * features);
                batchLabels_[static_cast<std::size_t>(i)] =
                    train.labels[static_cast<std::size_t>(row)];
            }
            forward(shape_, parameters_.data(), batchX_.data(), count, activations_);
            buffers_.delta.resize(static_cast<std::size_t>(count) * shape_.classes);
            lossSum += softmaxCrossEntropy(activations_.back().data(), batchLabels_.data(), count,
                                           shape_.classes, buffers_.delta.data())
                           .loss;
            backward(shape_, parameters_.data(), batchX_.data(), count, activations_, buffers_,
                     gradient_.data());
            ++step;
            adamUpdate(adamStep(hp, step), shape_.weightCount(), parameters_.size(),
                       gradient_.data(), parameters_.data(), m_.data(), v_.data());
        }
        return rows > 0 ? lossSum / rows : 0.0;
    }

    Evaluation evaluate() override {
        const Samples& valid = data_.validation;
        forward(shape_, parameters_.data(), valid.x.data(), valid.rows(), activations_);
        const LossSum sum = softmaxCrossEntropy<float>(
            activations_.back().data(), valid.labels.data(), valid.rows(), shape_.classes, nullptr);
        return {sum.loss / valid.rows(), static_cast<double>(sum.correct) / valid.rows()};
    }

  private:
    DigitsSplit data_;
    Shape shape_;
    std::vector<float> parameters_, m_, v_, gradient_;
    std::vector<float> batchX_;
    BackwardBuffers<float> buffers_;
    std::vector<int> batchLabels_;
    std::vector<std::vector<float>> activations_;
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend(const DigitsSplit& data, const Shape& shape,
                                        int batchSize) {
    return std::make_unique<CpuBackend>(data, shape, batchSize);
}

}  // namespace tunedeck::mlp
