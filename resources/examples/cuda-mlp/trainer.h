// Trains the MLP epoch by epoch on a backend and measures each epoch: what one training
// iteration of the trial reports. Restoring a checkpoint replaces the state; the shuffle of each
// epoch depends on the seed and the epoch number only, so a restored run repeats an
// uninterrupted one exactly. Used from one thread.
#pragma once

#include <memory>

#include "backend.h"
#include "digits.h"
#include "model.h"

namespace tunedeck::mlp {

struct EpochResult {
    long long epoch = 0;  // epochs completed, this one included
    double trainLoss = 0;
    double validationLoss = 0;
    double validationAccuracy = 0;
    double seconds = 0;           // wall time of the training pass (evaluation excluded)
    double samplesPerSecond = 0;  // training samples per second of that pass
};

// Throws std::invalid_argument naming the first hyperparameter out of range.
void checkHyperparameters(const Hyperparameters& hp);

// The model's shape for these hyperparameters on this data.
Shape shapeFor(const Hyperparameters& hp, const DigitsSplit& data);

class Trainer {
  public:
    // A fresh model (initialState of hp.seed) on `backend`, built for shapeFor(hp, data).
    Trainer(const DigitsSplit& data, const Hyperparameters& hp, std::unique_ptr<Backend> backend);

    // Continues from a checkpoint. Throws std::runtime_error when its shape is not this
    // trainer's (width or depth differ from the checkpoint's).
    void restore(const TrainingState& state);
    // The state to checkpoint.
    TrainingState state() const;

    EpochResult trainEpoch();
    long long epoch() const { return epoch_; }
    std::string device() const { return backend_->device(); }

  private:
    Hyperparameters hp_;
    Shape shape_;
    int trainRows_;
    std::unique_ptr<Backend> backend_;
    long long epoch_ = 0;
    long long step_ = 0;
};

}  // namespace tunedeck::mlp
