// The CUDA entry points of the CPU-only build: there is no CUDA path to offer.
#include <stdexcept>

#include "cuda_backend.h"

namespace tunedeck::mlp {

CudaProbe probeCuda() {
    return {false, "this binary was built without CUDA (the CUDA toolkit was not found)"};
}

std::unique_ptr<Backend> makeCudaBackend(const DigitsSplit&, const Shape&, int) {
    throw std::runtime_error("this binary was built without CUDA");
}

}  // namespace tunedeck::mlp
