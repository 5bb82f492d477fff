// The median the tests and benchmarks report: the middle value, or the mean of the two middle
// values of an even count; 0 for none.
#pragma once

#include <algorithm>
#include <vector>

inline double median(std::vector<double> values) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}
