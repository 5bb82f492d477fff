// The CUDA path: the math of mlp_math.h as kernels, on the first visible device. Deterministic
// by construction: every sum has one thread or one fixed tree order (no atomics), so a seed
// gives the same numbers on every run on the same GPU. The whole data set lives on the device;
// an epoch is a stream of launches with one synchronisation at its end.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda_backend.h"

namespace tunedeck::mlp {

namespace {

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
    }
}

constexpr int kTile = 16;            // GEMM tile: 16 x 16 threads, one output each
constexpr int kReduceThreads = 256;  // threads of the loss kernel (a power of two)
constexpr int kEvalChunk = 256;      // validation rows per loss block
constexpr int kThreads = 256;        // element-wise kernels

enum class Epilogue {
    Store,        // C = A * B
    AddBias,      // C = A * B + bias (the output layer)
    AddBiasRelu,  // C = relu(A * B + bias) (hidden layers)
    ReluMask,     // C = (A * B) where mask > 0, else 0 (delta through a ReLU)
};

// C[M x N] = op(A)[M x K] * op(B)[K x N], row-major. op(A) is A, or A stored K x M when TA;
// op(B) is B, or B stored N x K when TB. Each thread sums its element over k in ascending
// order, as the CPU path does.
template <bool TA, bool TB, Epilogue E>
__global__ void gemmKernel(int M, int N, int K, const float* __restrict__ A, int lda,
                           const float* __restrict__ B, int ldb, float* __restrict__ C, int ldc,
                           const float* __restrict__ extra) {
    __shared__ float as[kTile][kTile + 1];
    __shared__ float bs[kTile][kTile + 1];
    const int tx = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
    const int row = static_cast<int>(blockIdx.y) * kTile + ty;
    const int col = static_cast<int>(blockIdx.x) * kTile + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        const int ka = k0 + tx;
        const int kb = k0 + ty;
        float a = 0.0f;
        if (row < M && ka < K) {
            a = TA ? A[static_cast<size_t>(ka) * lda + row]
                   : A[static_cast<size_t>(row) * lda + ka];
        }
        float b = 0.0f;
        if (kb < K && col < N) {
            b = TB ? B[static_cast<size_t>(col) * ldb + kb]
                   : B[static_cast<size_t>(kb) * ldb + col];
        }
        as[ty][tx] = a;
        bs[ty][tx] = b;
        __syncthreads();
        const int steps = min(kTile, K - k0);
        for (int k = 0; k < steps; ++k) {
            acc += as[ty][k] * bs[k][tx];
        }
        __syncthreads();
    }
    if (row >= M || col >= N) {
        return;
    }
    const size_t at = static_cast<size_t>(row) * ldc + col;
    if constexpr (E == Epilogue::Store) {
        C[at] = acc;
    } else if constexpr (E == Epilogue::AddBias) {
        C[at] = acc + extra[col];
    } else if constexpr (E == Epilogue::AddBiasRelu) {
        const float z = acc + extra[col];
        C[at] = z > 0.0f ? z : 0.0f;
    } else {
        C[at] = extra[at] > 0.0f ? acc : 0.0f;
    }
}

template <bool TA, bool TB, Epilogue E>
void gemm(cudaStream_t stream, int M, int N, int K, const float* A, int lda, const float* B,
          int ldb, float* C, int ldc, const float* extra = nullptr) {
    const dim3 threads(kTile, kTile);
    const dim3 blocks((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    gemmKernel<TA, TB, E><<<blocks, threads, 0, stream>>>(M, N, K, A, lda, B, ldb, C, ldc, extra);
}

// The batch's inputs and labels, gathered from the training set in the epoch's order.
__global__ void gatherKernel(const float* __restrict__ x, const int* __restrict__ labels,
                             const int* __restrict__ order, int first, int rows, int features,
                             float* __restrict__ batchX, int* __restrict__ batchLabels) {
    const int total = rows * features;
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < total;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        const int r = i / features;
        const int f = i - r * features;
        const int source = order[first + r];
        batchX[i] = x[static_cast<size_t>(source) * features + f];
        if (f == 0) {
            batchLabels[r] = labels[source];
        }
    }
}

// Softmax cross-entropy of `rows` rows, one block: thread t takes rows t, t + blockDim, ...;
// the block's loss sum (fixed tree order) goes to *lossOut and the correct count to
// *correctOut. With `gradient`, writes (softmax - one_hot) / rows.
__global__ void softmaxCrossEntropyKernel(const float* __restrict__ logits,
                                          const int* __restrict__ labels, int rows, int classes,
                                          float inverseRows, float* __restrict__ gradient,
                                          float* __restrict__ lossOut,
                                          int* __restrict__ correctOut) {
    __shared__ float losses[kReduceThreads];
    __shared__ int corrects[kReduceThreads];
    const int t = static_cast<int>(threadIdx.x);
    float loss = 0.0f;
    int correct = 0;
    for (int i = t; i < rows; i += kReduceThreads) {
        const float* z = logits + static_cast<size_t>(i) * classes;
        const int label = labels[i];
        int best = 0;
        for (int j = 1; j < classes; ++j) {
            if (z[j] > z[best]) {
                best = j;
            }
        }
        const float top = z[best];
        float total = 0.0f;
        for (int j = 0; j < classes; ++j) {
            total += expf(z[j] - top);
        }
        loss += logf(total) - (z[label] - top);
        correct += best == label ? 1 : 0;
        if (gradient) {
            float* g = gradient + static_cast<size_t>(i) * classes;
            for (int j = 0; j < classes; ++j) {
                const float p = expf(z[j] - top) / total;
                g[j] = (p - (j == label ? 1.0f : 0.0f)) * inverseRows;
            }
        }
    }
    losses[t] = loss;
    corrects[t] = correct;
    __syncthreads();
    for (int half = kReduceThreads / 2; half > 0; half /= 2) {
        if (t < half) {
            losses[t] += losses[t + half];
            corrects[t] += corrects[t + half];
        }
        __syncthreads();
    }
    if (t == 0) {
        *lossOut = losses[0];
        if (correctOut) {
            *correctOut = corrects[0];
        }
    }
}

// db[j] = sum over the rows of delta[i][j], one thread per column, rows in order.
__global__ void biasGradientKernel(const float* __restrict__ delta, int rows, int n,
                                   float* __restrict__ db) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= n) {
        return;
    }
    float sum = 0.0f;
    for (int i = 0; i < rows; ++i) {
        sum += delta[static_cast<size_t>(i) * n + j];
    }
    db[j] = sum;
}

// One AdamW step, element-wise: the formula of adamUpdate in mlp_math.h.
__global__ void adamKernel(size_t count, size_t weightCount, AdamStep s,
                           const float* __restrict__ gradient, float* __restrict__ parameters,
                           float* __restrict__ m, float* __restrict__ v) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) {
        return;
    }
    const float beta1 = AdamConstants::beta1;
    const float beta2 = AdamConstants::beta2;
    const float g = gradient[i];
    const float mi = beta1 * m[i] + (1.0f - beta1) * g;
    const float vi = beta2 * v[i] + (1.0f - beta2) * (g * g);
    m[i] = mi;
    v[i] = vi;
    const float mHat = mi * s.correction1;
    const float vHat = vi * s.correction2;
    const float p = parameters[i];
    const float decay = i < weightCount ? s.weightDecay * p : 0.0f;
    parameters[i] = p - s.learningRate * (mHat / (sqrtf(vHat) + AdamConstants::epsilon) + decay);
}

// A device buffer of T, freed with its owner.
template <typename T>
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t count) : count_(count) {
        if (count > 0) {
            check(cudaMalloc(&data_, count * sizeof(T)), "cudaMalloc");
        }
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(count_, other.count_);
        return *this;
    }
    ~DeviceBuffer() {
        if (data_) {
            cudaFree(data_);
        }
    }
    T* get() const { return data_; }
    size_t size() const { return count_; }

  private:
    T* data_ = nullptr;
    size_t count_ = 0;
};

// Copies `host` to a new device buffer on `stream`; the caller synchronises before `host` goes.
template <typename T>
DeviceBuffer<T> upload(const std::vector<T>& host, cudaStream_t stream) {
    DeviceBuffer<T> buffer(host.size());
    if (!host.empty()) {
        check(cudaMemcpyAsync(buffer.get(), host.data(), host.size() * sizeof(T),
                              cudaMemcpyHostToDevice, stream),
              "copying the data set to the device");
    }
    return buffer;
}

class CudaBackend : public Backend {
  public:
    CudaBackend(const DigitsSplit& data, const Shape& shape, int batchSize)
        : shape_(shape), trainRows_(data.train.rows()), validRows_(data.validation.rows()) {
        check(cudaSetDevice(0), "cudaSetDevice");
        cudaDeviceProp properties{};
        check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
        device_ = std::string("cuda:0 (") + properties.name + ")";
        check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
        trainX_ = upload(data.train.x, stream_);
        trainLabels_ = upload(data.train.labels, stream_);
        validX_ = upload(data.validation.x, stream_);
        validLabels_ = upload(data.validation.labels, stream_);
        const size_t count = shape.parameterCount();
        parameters_ = DeviceBuffer<float>(count);
        m_ = DeviceBuffer<float>(count);
        v_ = DeviceBuffer<float>(count);
        gradient_ = DeviceBuffer<float>(count);
        const int maxRows = std::max(batchSize, kEvalChunk);
        for (int l = 0; l < shape.layers(); ++l) {
            activations_.emplace_back(static_cast<size_t>(maxRows) * shape.fanOut(l));
        }
        const int widest = std::max(shape.width, shape.classes);
        deltaA_ = DeviceBuffer<float>(static_cast<size_t>(batchSize) * widest);
        deltaB_ = DeviceBuffer<float>(static_cast<size_t>(batchSize) * widest);
        batchX_ = DeviceBuffer<float>(static_cast<size_t>(batchSize) * shape.inputs);
        batchLabels_ = DeviceBuffer<int>(static_cast<size_t>(batchSize));
        order_ = DeviceBuffer<int>(static_cast<size_t>(trainRows_));
        batchLosses_ = DeviceBuffer<float>(static_cast<size_t>(trainRows_));  // >= batches
        const int chunks = batchCount(validRows_, kEvalChunk);
        evalLosses_ = DeviceBuffer<float>(static_cast<size_t>(chunks));
        evalCorrect_ = DeviceBuffer<int>(static_cast<size_t>(chunks));
        // The copies read `data`, which the caller may free once this returns.
        check(cudaStreamSynchronize(stream_), "copying the data set to the device");
    }

    ~CudaBackend() override {
        if (stream_) {
            cudaStreamDestroy(stream_);
        }
    }

    std::string device() const override { return device_; }

    void load(const TrainingState& state) override {
        copyIn(parameters_, state.parameters);
        copyIn(m_, state.firstMoment);
        copyIn(v_, state.secondMoment);
        check(cudaStreamSynchronize(stream_), "loading the state");
    }

    void store(TrainingState& state) const override {
        state.parameters = copyOut(parameters_, parameters_.size());
        state.firstMoment = copyOut(m_, m_.size());
        state.secondMoment = copyOut(v_, v_.size());
    }

    double trainEpoch(const std::vector<int>& order, const Hyperparameters& hp,
                      long long& step) override {
        const int rows = static_cast<int>(order.size());
        check(cudaMemcpyAsync(order_.get(), order.data(), order.size() * sizeof(int),
                              cudaMemcpyHostToDevice, stream_),
              "uploading the epoch's order");
        const int batches = batchCount(rows, hp.batchSize);
        for (int b = 0; b < batches; ++b) {
            const int first = b * hp.batchSize;
            const int count = std::min(hp.batchSize, rows - first);
            const int elements = count * shape_.inputs;
            gatherKernel<<<(elements + kThreads - 1) / kThreads, kThreads, 0, stream_>>>(
                trainX_.get(), trainLabels_.get(), order_.get(), first, count, shape_.inputs,
                batchX_.get(), batchLabels_.get());
            forward(batchX_.get(), count);
            softmaxCrossEntropyKernel<<<1, kReduceThreads, 0, stream_>>>(
                activations_.back().get(), batchLabels_.get(), count, shape_.classes,
                1.0f / static_cast<float>(count), deltaA_.get(), batchLosses_.get() + b, nullptr);
            backward(count);
            ++step;
            const size_t n = shape_.parameterCount();
            adamKernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0,
                         stream_>>>(n, shape_.weightCount(), adamStep(hp, step), gradient_.get(),
                                    parameters_.get(), m_.get(), v_.get());
        }
        check(cudaGetLastError(), "launching the training kernels");
        std::vector<float> losses(static_cast<size_t>(batches));
        check(cudaMemcpyAsync(losses.data(), batchLosses_.get(), losses.size() * sizeof(float),
                              cudaMemcpyDeviceToHost, stream_),
              "reading the losses");
        check(cudaStreamSynchronize(stream_), "training");
        double sum = 0;
        for (const float loss : losses) {
            sum += loss;
        }
        return rows > 0 ? sum / rows : 0.0;
    }

    Evaluation evaluate() override {
        const int chunks = batchCount(validRows_, kEvalChunk);
        for (int c = 0; c < chunks; ++c) {
            const int first = c * kEvalChunk;
            const int count = std::min(kEvalChunk, validRows_ - first);
            forward(validX_.get() + static_cast<size_t>(first) * shape_.inputs, count);
            softmaxCrossEntropyKernel<<<1, kReduceThreads, 0, stream_>>>(
                activations_.back().get(), validLabels_.get() + first, count, shape_.classes, 1.0f,
                nullptr, evalLosses_.get() + c, evalCorrect_.get() + c);
        }
        check(cudaGetLastError(), "launching the evaluation kernels");
        std::vector<float> losses(static_cast<size_t>(chunks));
        std::vector<int> correct(static_cast<size_t>(chunks));
        check(cudaMemcpyAsync(losses.data(), evalLosses_.get(), losses.size() * sizeof(float),
                              cudaMemcpyDeviceToHost, stream_),
              "reading the validation loss");
        check(cudaMemcpyAsync(correct.data(), evalCorrect_.get(), correct.size() * sizeof(int),
                              cudaMemcpyDeviceToHost, stream_),
              "reading the validation accuracy");
        check(cudaStreamSynchronize(stream_), "evaluating");
        double loss = 0;
        long long right = 0;
        for (int c = 0; c < chunks; ++c) {
            loss += losses[static_cast<size_t>(c)];
            right += correct[static_cast<size_t>(c)];
        }
        return {loss / validRows_, static_cast<double>(right) / validRows_};
    }

  private:
    const float* weights(int layer) const { return parameters_.get() + shape_.weightOffset(layer); }
    const float* biases(int layer) const { return parameters_.get() + shape_.biasOffset(layer); }

    void forward(const float* x, int rows) {
        for (int l = 0; l < shape_.layers(); ++l) {
            const float* in = l == 0 ? x : activations_[static_cast<size_t>(l - 1)].get();
            float* out = activations_[static_cast<size_t>(l)].get();
            const int k = shape_.fanIn(l);
            const int n = shape_.fanOut(l);
            if (l < shape_.depth) {
                gemm<false, false, Epilogue::AddBiasRelu>(stream_, rows, n, k, in, k, weights(l), n,
                                                          out, n, biases(l));
            } else {
                gemm<false, false, Epilogue::AddBias>(stream_, rows, n, k, in, k, weights(l), n,
                                                      out, n, biases(l));
            }
        }
    }

    // From the logits' gradient in deltaA_ to every parameter's gradient in gradient_.
    void backward(int rows) {
        float* delta = deltaA_.get();
        float* spare = deltaB_.get();
        for (int l = shape_.layers() - 1; l >= 0; --l) {
            const int k = shape_.fanIn(l);
            const int n = shape_.fanOut(l);
            const float* in =
                l == 0 ? batchX_.get() : activations_[static_cast<size_t>(l - 1)].get();
            // dW = in^T * delta: in is rows x k, read transposed.
            gemm<true, false, Epilogue::Store>(stream_, k, n, rows, in, k, delta, n,
                                               gradient_.get() + shape_.weightOffset(l), n);
            biasGradientKernel<<<(n + kThreads - 1) / kThreads, kThreads, 0, stream_>>>(
                delta, rows, n, gradient_.get() + shape_.biasOffset(l));
            if (l > 0) {
                // delta below = (delta * W^T) through the ReLU: W is k x n, read transposed.
                gemm<false, true, Epilogue::ReluMask>(stream_, rows, k, n, delta, n, weights(l), n,
                                                      spare, k, in);
                std::swap(delta, spare);
            }
        }
    }

    void copyIn(DeviceBuffer<float>& buffer, const std::vector<float>& host) {
        if (host.size() != buffer.size()) {
            throw std::runtime_error("CUDA: the state does not match the model's shape");
        }
        check(cudaMemcpyAsync(buffer.get(), host.data(), host.size() * sizeof(float),
                              cudaMemcpyHostToDevice, stream_),
              "cudaMemcpy of the state");
    }

    std::vector<float> copyOut(const DeviceBuffer<float>& buffer, size_t count) const {
        std::vector<float> host(count);
        check(cudaMemcpyAsync(host.data(), buffer.get(), count * sizeof(float),
                              cudaMemcpyDeviceToHost, stream_),
              "cudaMemcpy of the state");
        check(cudaStreamSynchronize(stream_), "reading the state");
        return host;
    }

    Shape shape_;
    int trainRows_;
    int validRows_;
    std::string device_;
    cudaStream_t stream_ = nullptr;
    DeviceBuffer<float> trainX_, validX_;
    DeviceBuffer<int> trainLabels_, validLabels_;
    DeviceBuffer<float> parameters_, m_, v_, gradient_;
    std::vector<DeviceBuffer<float>> activations_;
    DeviceBuffer<float> deltaA_, deltaB_, batchX_;
    DeviceBuffer<int> batchLabels_, order_;
    DeviceBuffer<float> batchLosses_, evalLosses_;
    DeviceBuffer<int> evalCorrect_;
};

}  // namespace

CudaProbe probeCuda() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        cudaGetLastError();  // the error is not sticky; clear it for later calls
        std::string reason = std::string("no usable CUDA device (") + cudaGetErrorString(status);
        if (status == cudaErrorInsufficientDriver) {
            // The same code means "no driver at all" and "a driver older than this build".
            reason += ": no NVIDIA driver, or one older than CUDA " +
                      std::to_string(CUDART_VERSION / 1000) + "." +
                      std::to_string(CUDART_VERSION % 1000 / 10) +
                      ", which this binary was built with";
        }
        return {false, reason + ")"};
    }
    if (count == 0) {
        return {false, "no CUDA device is visible (CUDA_VISIBLE_DEVICES hides them all?)"};
    }
    return {true, ""};
}

std::unique_ptr<Backend> makeCudaBackend(const DigitsSplit& data, const Shape& shape,
                                         int batchSize) {
    return std::make_unique<CudaBackend>(data, shape, batchSize);
}

}  // namespace tunedeck::mlp
