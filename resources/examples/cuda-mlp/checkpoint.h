// Checkpoints of the MLP: the whole TrainingState (shape, epochs and optimizer steps done,
// parameters and Adam's moments) in one binary file, so a restored trial continues bit for bit
// where it stopped. Pure file I/O; thread-safe for different folders.
#pragma once

#include <string>

#include "model.h"

namespace tunedeck::mlp {

// The file inside a checkpoint folder.
inline constexpr const char* kCheckpointFile = "mlp_state.bin";

// Writes `state` into the folder `dir` (which exists). Throws std::runtime_error on I/O errors.
void saveCheckpoint(const std::string& dir, const TrainingState& state);

// Reads the state saved in `dir`. Throws std::runtime_error naming the file when it is missing,
// truncated, or not a checkpoint of this example.
TrainingState loadCheckpoint(const std::string& dir);

}  // namespace tunedeck::mlp
