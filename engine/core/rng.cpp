#include "core/rng.h"

#include <cmath>
#include <numbers>

namespace tunedeck {

namespace {

constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

// The splitmix64 output function: a bijection on 64-bit words with good avalanche.
std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

Rng Rng::forStream(std::uint64_t seed, std::uint64_t index) {
    // Mixing the seed first and the index second keeps (seed, index) pairs apart: for a fixed
    // seed, distinct indices give distinct start states (mix64 is a bijection), and the start
    // states are scattered, so two streams do not run along the same splitmix sequence.
    return Rng(mix64(mix64(seed + kGoldenGamma) + index * kGoldenGamma));
}

std::uint64_t Rng::next() {
    state_ += kGoldenGamma;
    return mix64(state_);
}

double Rng::uniform01() {
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double low, double high) {
    const double value = low + (high - low) * uniform01();
    // low + span * u can round up to `high` itself; the interval is half-open.
    if (value >= high && high > low) {
        return std::nextafter(high, low);
    }
    return value;
}

std::int64_t Rng::integer(std::int64_t low, std::int64_t highExclusive) {
    if (highExclusive <= low) {
        return low;
    }
    const std::uint64_t range =
        static_cast<std::uint64_t>(highExclusive) - static_cast<std::uint64_t>(low);
    // Draws below `threshold` would make the low residues more likely; 2^64 - threshold is a
    // multiple of `range`, so what remains is exactly uniform.
    const std::uint64_t threshold = (0 - range) % range;
    std::uint64_t draw = next();
    while (draw < threshold) {
        draw = next();
    }
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + draw % range);
}

double Rng::normal(double mu, double sigma) {
    const double u1 = 1.0 - uniform01();  // (0, 1]: log stays finite
    const double u2 = uniform01();
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    return mu + sigma * z;
}

}  // namespace tunedeck
