#include "digits.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tunedeck::mlp {

namespace {

constexpr int kClasses = 10;
constexpr int kValidationEvery = 5;  // 1 in 5 images of each class: a 20% validation split

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

}  // namespace

Samples readDigitsCsv(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path + ": cannot open the data file");
    }
    Samples samples;
    std::string text;
    int line = 0;
    if (!std::getline(in, text)) {
        fail(path, 1, "empty file (a header line is expected)");
    }
    ++line;
    while (std::getline(in, text)) {
        ++line;
        if (text.empty()) {
            continue;
        }
        std::vector<double> values;
        std::stringstream fields(text);
        std::string field;
        while (std::getline(fields, field, ',')) {
            char* end = nullptr;
            const double value = std::strtod(field.c_str(), &end);
            if (field.empty() || *end != '\0' || !std::isfinite(value)) {
                fail(path, line, "'" + field + "' is not a number");
            }
            values.push_back(value);
        }
        if (values.size() < 2) {
            fail(path, line, "a row needs pixel values and a label");
        }
        const int features = static_cast<int>(values.size()) - 1;
        if (samples.features == 0) {
            samples.features = features;
        } else if (features != samples.features) {
            fail(path, line,
                 std::to_string(features) + " features, the rows before have " +
                     std::to_string(samples.features));
        }
        const double label = values.back();
        if (label != std::floor(label) || label < 0 || label >= kClasses) {
            fail(path, line, "the label must be an integer from 0 to 9");
        }
        for (int i = 0; i < features; ++i) {
            samples.x.push_back(static_cast<float>(values[i]));
        }
        samples.labels.push_back(static_cast<int>(label));
    }
    if (samples.rows() == 0) {
        throw std::runtime_error(path + ": no data rows");
    }
    return samples;
}

DigitsSplit splitDigits(const Samples& all) {
    DigitsSplit split;
    split.classes = kClasses;
    split.train.features = split.validation.features = all.features;
    int seenOfClass[kClasses] = {};
    for (int row = 0; row < all.rows(); ++row) {
        const int label = all.labels[row];
        Samples& part = (seenOfClass[label]++ % kValidationEvery == kValidationEvery - 1)
                            ? split.validation
                            : split.train;
        part.labels.push_back(label);
        part.x.insert(part.x.end(), all.x.begin() + static_cast<long>(row) * all.features,
                      all.x.begin() + static_cast<long>(row + 1) * all.features);
    }
    // Statistics in double over the training rows only, so validation leaks nothing.
    const int n = split.train.rows();
    for (int f = 0; f < all.features; ++f) {
        double sum = 0, squares = 0;
        for (int row = 0; row < n; ++row) {
            const double v = split.train.x[static_cast<std::size_t>(row) * all.features + f];
            sum += v;
            squares += v * v;
        }
        const double mean = sum / n;
        const double sd = std::sqrt(std::max(0.0, squares / n - mean * mean));
        for (Samples* part : {&split.train, &split.validation}) {
            for (int row = 0; row < part->rows(); ++row) {
                float& v = part->x[static_cast<std::size_t>(row) * all.features + f];
                v = sd > 1e-9 ? static_cast<float>((v - mean) / sd) : 0.0f;
            }
        }
    }
    return split;
}

}  // namespace tunedeck::mlp
