// The digits data set of the example: 8x8 images from digits.csv, split into a fixed training
// and validation part and standardised with the training part's statistics, so that every
// trial, on either device, trains and is judged on exactly the same numbers.
// Plain values and pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

namespace tunedeck::mlp {

// Row-major samples: `features` floats per row in `x`, the class of each row in `labels`.
struct Samples {
    int features = 0;
    std::vector<float> x;
    std::vector<int> labels;
    int rows() const { return static_cast<int>(labels.size()); }
};

struct DigitsSplit {
    Samples train;
    Samples validation;
    int classes = 0;
};

// Reads a CSV whose first line is a header, each further line `features` numbers then an integer
// label in [0, 9]. Throws std::runtime_error naming the file and line of the first problem.
Samples readDigitsCsv(const std::string& path);

// Every fifth image of each class goes to validation (20%, stratified, the same for every seed:
// trials are compared on one validation set). Pixels are standardised per feature with the
// training rows' mean and standard deviation (features that never vary become 0).
DigitsSplit splitDigits(const Samples& all);

}  // namespace tunedeck::mlp
