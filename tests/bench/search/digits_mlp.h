// The benchmark's real task: a one-hidden-layer MLP (Eigen, float) trained with Adam on
// scikit-learn's bundled digits, scored by validation error. Deterministic: the same config and
// seed give the same curve on a machine. Not thread-safe per object; objects are independent.
#pragma once

#include <Eigen/Dense>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace tunedeck::bench {

// The 1,797 8x8 images, scaled to [0, 1], split once with a fixed shuffle so every run trains
// and validates on the same images.
struct DigitsData {
    Eigen::MatrixXf trainX;  // 64 x n, one image per column (contiguous batches)
    std::vector<int> trainY;
    Eigen::MatrixXf validX;
    std::vector<int> validY;
};

// Where the CSV lives when nothing else is said: beside the build's binaries, never in git.
QString defaultDigitsCsv();
// Reads the CSV at `csvPath` (label then 64 pixel values per line), first writing it with a
// Python that has scikit-learn when it is missing ($TUNEDECK_BENCH_PYTHON, then Debian's
// python3, then the one on PATH). nullopt with *error set when neither works.
std::optional<DigitsData> loadDigits(const QString& csvPath, QString* error);

struct MlpConfig {
    double learningRate = 1e-3;
    int width = 64;  // hidden units
    int batchSize = 64;
    double weightDecay = 1e-4;  // L2 added to the gradient
    double beta1 = 0.9;         // Adam's first-moment decay (its momentum)
};

// One trial's training: the weights and Adam's moments, advanced an epoch at a time, so a
// paused trial resumes exactly where it stopped by keeping the object.
class MlpTraining {
  public:
    MlpTraining(const DigitsData& data, const MlpConfig& config, std::uint64_t seed);

    // Trains one more epoch and returns the validation error (1 - accuracy) after it.
    double trainEpoch();
    int epochsDone() const { return epochs_; }

  private:
    void step(const Eigen::MatrixXf& batchX, const std::vector<int>& batchY);
    double validationError() const;

    const DigitsData& data_;
    MlpConfig config_;
    std::uint64_t seed_;
    int epochs_ = 0;
    std::int64_t adamSteps_ = 0;
    Eigen::MatrixXf w1_, w2_;
    Eigen::VectorXf b1_, b2_;
    // Adam's first and second moments, one pair per parameter tensor.
    Eigen::MatrixXf mW1_, vW1_, mW2_, vW2_;
    Eigen::VectorXf mB1_, vB1_, mB2_, vB2_;
};

}  // namespace tunedeck::bench
