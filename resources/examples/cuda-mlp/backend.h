// Where the MLP trains: the plain C++ CPU path (cpu_backend.cpp) or the CUDA path
// (cuda_backend.cu). Both hold the data set, the parameters and Adam's moments, and implement
// the math of mlp_math.h; the trainer picks one and never looks inside.
// A backend is used from one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "digits.h"
#include "model.h"

namespace tunedeck::mlp {

struct Evaluation {
    double loss = 0;      // mean cross-entropy over the validation rows
    double accuracy = 0;  // share of validation rows classified right
};

class Backend {
  public:
    virtual ~Backend() = default;

    // What it runs on, for the log and the results: "cpu", or "cuda:0 (NVIDIA H200)".
    virtual std::string device() const = 0;
    // Takes the parameters and Adam's moments of `state` (of this backend's shape).
    virtual void load(const TrainingState& state) = 0;
    // Copies the parameters and moments into `state`.
    virtual void store(TrainingState& state) const = 0;
    // One pass over the training rows in `order`, in mini-batches of `hp.batchSize`, one AdamW
    // step each (`step` counts them). Returns the mean training loss. On return the work is
    // finished (the CUDA path has synchronised), so timing it measures the training.
    virtual double trainEpoch(const std::vector<int>& order, const Hyperparameters& hp,
                              long long& step) = 0;
    virtual Evaluation evaluate() = 0;
};

std::unique_ptr<Backend> makeCpuBackend(const DigitsSplit& data, const Shape& shape, int batchSize);

}  // namespace tunedeck::mlp
