// The CUDA path of the MLP, present when the example is built with the CUDA toolkit (the
// cuda-mlp binary); the CPU-only binary links no_cuda.cpp instead, which says so.
// probeCuda may be called from any thread; a backend is used from one thread.
#pragma once

#include <memory>
#include <string>

#include "backend.h"

namespace tunedeck::mlp {

struct CudaProbe {
    bool usable = false;
    std::string reason;  // why not, when not usable: no toolkit at build time, no driver, no device
};

// Whether a CUDA device is visible (CUDA_VISIBLE_DEVICES applies). Never fails: a machine
// without a driver or a GPU answers `usable = false` with the runtime's reason.
CudaProbe probeCuda();

// A backend on the first visible device. Throws std::runtime_error when CUDA fails.
std::unique_ptr<Backend> makeCudaBackend(const DigitsSplit& data, const Shape& shape,
                                         int batchSize);

}  // namespace tunedeck::mlp
