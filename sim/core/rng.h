#pragma once
// The one random-number source of a run, seeded from the scenario.
//
// std::mt19937_64 produces the same sequence on every platform; the distributions
// here are written out by hand because std::uniform_real_distribution and friends
// are allowed to differ between standard libraries.

#include <cstdint>
#include <random>

namespace migsim {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n) { return engine_() % n; }
  // True with probability p.
  bool Bernoulli(double p) { return Uniform() < p; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace migsim
