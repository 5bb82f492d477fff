// The CPU path's math of the MLP: forward pass, softmax cross-entropy, backward pass and the
// AdamW step, as templates so the gradient test can run the very same code in double. The CUDA
// kernels (cuda_backend.cu) implement these formulas with the same summation order over k; they
// differ only where the GPU fuses a multiply and an add, and in exp/log's last bits.
// Pure functions on caller-owned buffers; thread-safe.
#pragma once

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "model.h"

namespace tunedeck::mlp {

// C[rows x n] = A[rows x k] * W[k x n] (+ bias, then ReLU when `relu`). Loop order i, k, j: the
// inner loop runs along rows of W and C, which vectorises, and each C element sums over k in
// ascending order, as the GPU's tiles do.
template <typename T>
void denseForward(const T* a, int rows, int k, const T* w, const T* bias, int n, bool relu, T* c) {
    for (int i = 0; i < rows; ++i) {
        T* out = c + static_cast<std::size_t>(i) * n;
        for (int j = 0; j < n; ++j) {
            out[j] = T(0);
        }
        const T* in = a + static_cast<std::size_t>(i) * k;
        for (int p = 0; p < k; ++p) {
            const T x = in[p];
            const T* wRow = w + static_cast<std::size_t>(p) * n;
            for (int j = 0; j < n; ++j) {
                out[j] += x * wRow[j];
            }
        }
        for (int j = 0; j < n; ++j) {
            const T z = out[j] + bias[j];
            out[j] = relu && !(z > T(0)) ? T(0) : z;
        }
    }
}

// Activations of every layer for `rows` inputs: activations[l] holds layer l's outputs
// (rows x fanOut(l)); the last are the logits.
template <typename T>
void forward(const Shape& shape, const T* parameters, const T* x, int rows,
             std::vector<std::vector<T>>& activations) {
    activations.resize(static_cast<std::size_t>(shape.layers()));
    for (int l = 0; l < shape.layers(); ++l) {
        auto& out = activations[static_cast<std::size_t>(l)];
        out.resize(static_cast<std::size_t>(rows) * shape.fanOut(l));
        const T* in = l == 0 ? x : activations[static_cast<std::size_t>(l - 1)].data();
        denseForward(in, rows, shape.fanIn(l), parameters + shape.weightOffset(l),
                     parameters + shape.biasOffset(l), shape.fanOut(l), l < shape.depth,
                     out.data());
    }
}

struct LossSum {
    double loss = 0;  // summed over the rows
    int correct = 0;  // rows whose largest logit (the first, on ties) is the label
};

// Softmax cross-entropy of each row, summed in T in row order. When `gradient` is given it
// receives d(mean loss)/d(logits): (softmax - one_hot(label)) / rows.
template <typename T>
LossSum softmaxCrossEntropy(const T* logits, const int* labels, int rows, int classes,
                            T* gradient) {
    T sum = T(0);
    int correct = 0;
    const T inverseRows = T(1) / T(rows);
    for (int i = 0; i < rows; ++i) {
        const T* z = logits + static_cast<std::size_t>(i) * classes;
        int best = 0;
        for (int j = 1; j < classes; ++j) {
            if (z[j] > z[best]) {
                best = j;
            }
        }
        const T top = z[best];
        T total = T(0);
        for (int j = 0; j < classes; ++j) {
            total += std::exp(z[j] - top);
        }
        sum += std::log(total) - (z[labels[i]] - top);
        correct += best == labels[i] ? 1 : 0;
        if (gradient) {
            T* g = gradient + static_cast<std::size_t>(i) * classes;
            for (int j = 0; j < classes; ++j) {
                const T p = std::exp(z[j] - top) / total;
                g[j] = (p - (j == labels[i] ? T(1) : T(0))) * inverseRows;
            }
        }
    }
    return {static_cast<double>(sum), correct};
}

// Workspace of the backward pass, kept between batches to avoid reallocations.
template <typename T>
struct BackwardBuffers {
    std::vector<T> delta;  // in: d(mean loss)/d(logits), rows x classes; overwritten
    std::vector<T> spare;
    std::vector<T> transposed;
};

// Gradient of the mean loss with respect to every parameter, from the forward pass's
// activations and the logits' gradient in `buffers.delta`.
template <typename T>
void backward(const Shape& shape, const T* parameters, const T* x, int rows,
              const std::vector<std::vector<T>>& activations, BackwardBuffers<T>& buffers,
              T* gradient) {
    std::vector<T>& delta = buffers.delta;
    std::vector<T>& spare = buffers.spare;
    std::vector<T>& transposed = buffers.transposed;
    for (int l = shape.layers() - 1; l >= 0; --l) {
        const int k = shape.fanIn(l);
        const int n = shape.fanOut(l);
        const T* in = l == 0 ? x : activations[static_cast<std::size_t>(l - 1)].data();
        T* dw = gradient + shape.weightOffset(l);
        T* db = gradient + shape.biasOffset(l);
        for (std::size_t i = 0; i < static_cast<std::size_t>(k) * n; ++i) {
            dw[i] = T(0);
        }
        for (int j = 0; j < n; ++j) {
            db[j] = T(0);
        }
        // dW = in^T * delta and db = column sums of delta, each summed over the rows in order.
        for (int i = 0; i < rows; ++i) {
            const T* d = delta.data() + static_cast<std::size_t>(i) * n;
            const T* a = in + static_cast<std::size_t>(i) * k;
            for (int p = 0; p < k; ++p) {
                const T ap = a[p];
                T* dwRow = dw + static_cast<std::size_t>(p) * n;
                for (int j = 0; j < n; ++j) {
                    dwRow[j] += ap * d[j];
                }
            }
            for (int j = 0; j < n; ++j) {
                db[j] += d[j];
            }
        }
        if (l == 0) {
            break;
        }
        // delta of the layer below: (delta * W^T), through the ReLU's derivative. W is read
        // through a transposed copy so the inner loop runs along contiguous rows and
        // vectorises; each element still sums over j in ascending order.
        const T* w = parameters + shape.weightOffset(l);
        transposed.resize(static_cast<std::size_t>(k) * n);
        for (int p = 0; p < k; ++p) {
            for (int j = 0; j < n; ++j) {
                transposed[static_cast<std::size_t>(j) * k + p] =
                    w[static_cast<std::size_t>(p) * n + j];
            }
        }
        const T* below = activations[static_cast<std::size_t>(l - 1)].data();
        spare.resize(static_cast<std::size_t>(rows) * k);
        for (int i = 0; i < rows; ++i) {
            const T* d = delta.data() + static_cast<std::size_t>(i) * n;
            T* out = spare.data() + static_cast<std::size_t>(i) * k;
            for (int p = 0; p < k; ++p) {
                out[p] = T(0);
            }
            for (int j = 0; j < n; ++j) {
                const T dj = d[j];
                const T* wt = transposed.data() + static_cast<std::size_t>(j) * k;
                for (int p = 0; p < k; ++p) {
                    out[p] += dj * wt[p];
                }
            }
            const T* mask = below + static_cast<std::size_t>(i) * k;
            for (int p = 0; p < k; ++p) {
                out[p] = mask[p] > T(0) ? out[p] : T(0);
            }
        }
        std::swap(delta, spare);
    }
}

// One AdamW step over the flat parameter vector; the first `weightCount` entries are decayed.
template <typename T>
void adamUpdate(const AdamStep& s, std::size_t weightCount, std::size_t count, const T* gradient,
                T* parameters, T* m, T* v) {
    const T beta1 = T(AdamConstants::beta1);
    const T beta2 = T(AdamConstants::beta2);
    const T oneMinusBeta1 = T(1) - beta1;
    const T oneMinusBeta2 = T(1) - beta2;
    for (std::size_t i = 0; i < count; ++i) {
        const T g = gradient[i];
        m[i] = beta1 * m[i] + oneMinusBeta1 * g;
        v[i] = beta2 * v[i] + oneMinusBeta2 * (g * g);
        const T mHat = m[i] * T(s.correction1);
        const T vHat = v[i] * T(s.correction2);
        const T decay = i < weightCount ? T(s.weightDecay) * parameters[i] : T(0);
        parameters[i] -=
            T(s.learningRate) * (mHat / (std::sqrt(vHat) + T(AdamConstants::epsilon)) + decay);
    }
}

}  // namespace tunedeck::mlp
