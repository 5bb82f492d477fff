// A seeded random source with results that do not depend on the standard library's
// distribution implementations, so the same seed gives the same configs on every machine.
// Not thread-safe; each user owns its own instance.
#pragma once

#include <cstdint>

namespace tunedeck {

class Rng {
  public:
    explicit Rng(std::uint64_t seed = 0) : state_(seed) {}

    // A generator for stream `index` of `seed` (e.g. trial 17 of an experiment): streams are
    // independent, so trial N's config does not depend on how many draws earlier trials made.
    static Rng forStream(std::uint64_t seed, std::uint64_t index);

    std::uint64_t next();                     // splitmix64: 64 uniformly distributed bits
    double uniform01();                       // [0, 1), 53 bits of precision
    double uniform(double low, double high);  // [low, high)
    std::int64_t integer(std::int64_t low, std::int64_t highExclusive);
    double normal(double mu,
                  double sigma);  // Box-Muller, no cached spare (stateless beyond state_)

    std::uint64_t state() const { return state_; }
    void setState(std::uint64_t state) { state_ = state; }

  private:
    std::uint64_t state_;
};

}  // namespace tunedeck
