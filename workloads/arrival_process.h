#pragma once
// Open-loop arrivals: a Poisson process (constant or piecewise-constant rate) of pods, each
// of a class picked by weight and with a run time drawn from the class's distribution.
// Pure sampling, no I/O: the loader (sim/io/arrivals_json.cc) turns the result into a
// TraceSpec.
//
// Determinism: every draw comes from one Rng (mt19937_64, the same sequence everywhere)
// through the hand-written transforms below, never std:: distributions, whose algorithms
// differ between standard libraries. The transforms use std::log, std::exp, std::cos and
// std::sqrt; sqrt is exact, and the others are within an ulp on the libraries we know,
// which the rounding of times to the microsecond absorbs.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/rng.h"

namespace migsim {

// 64-bit FNV-1a of `text`: a hash that is the same on every platform and release (unlike
// std::hash), to derive a workload's seed from its name.
uint64_t Fnv1a64(std::string_view text);

// The seed of one generator of a run: the scenario's seed mixed with `salt` (e.g. the
// Fnv1a64 of the workload's name) through SplitMix64, so that nearby seeds and names give
// unrelated streams.
uint64_t MixSeed(uint64_t seed, uint64_t salt);

// Exponential with mean `mean`, by inversion: −mean · ln(1 − U). REQUIRES: mean > 0.
double SampleExponential(Rng* rng, double mean);

// Standard normal by Box–Muller (the cosine half of the pair; two uniforms per draw, no
// state kept between draws).
double SampleStandardNormal(Rng* rng);

// Lognormal whose mean is `mean`: exp(mu + sigma · Z) with mu = ln(mean) − sigma² / 2.
// REQUIRES: mean > 0, sigma >= 0.
double SampleLognormal(Rng* rng, double mean, double sigma);

// A distribution of run times, in seconds (all values >= 0).
class RunTimeDistribution {
 public:
  static RunTimeDistribution Constant(double s);
  // REQUIRES: mean_s > 0.
  static RunTimeDistribution Exponential(double mean_s);
  // REQUIRES: mean_s > 0, sigma >= 0.
  static RunTimeDistribution Lognormal(double mean_s, double sigma);
  // Each of `values_s` with equal probability. REQUIRES: not empty.
  static RunTimeDistribution Empirical(std::vector<double> values_s);

  double Sample(Rng* rng) const;
  bool exponential() const { return kind_ == Kind::kExponential; }
  // E[S] and E[S²] of the distribution (of the sample, for an empirical one).
  double Mean() const;
  double SecondMoment() const;

 private:
  enum class Kind { kConstant, kExponential, kLognormal, kEmpirical };
  Kind kind_ = Kind::kConstant;
  double mean_s_ = 0;  // the constant, or the mean
  double sigma_ = 0;
  std::vector<double> values_s_;
};

// The rate from `from_s` (seconds since the process starts) until the next piece.
struct RatePiece {
  double from_s = 0;
  double per_s = 1;
};

// What to generate. REQUIRES: rate not empty, rate[0].from_s == 0, from_s strictly
// increasing, every per_s > 0; class_weights not empty, each > 0; at least one of count and
// until_s.
struct ArrivalPlan {
  std::vector<RatePiece> rate{};        // piecewise constant; the last piece lasts forever
  std::optional<int64_t> count{};       // stop after this many arrivals
  std::optional<double> until_s{};      // ... or at the first arrival at or after this time
  std::vector<double> class_weights{};  // relative, normalised here
  // Per class: the run-time distribution, or nullopt to draw none (the run time is then
  // decided elsewhere). Same size as class_weights.
  std::vector<std::optional<RunTimeDistribution>> class_runs{};
};

struct Arrival {
  double at_s = 0;   // since the process starts; non-decreasing over a generation
  uint32_t cls = 0;  // index into the plan's classes
  std::optional<double> run_s{};
};

// The next arrival after `t` (seconds since the start) of a Poisson process with the
// piecewise-constant `rate`, by exact inversion of its integrated rate: one Exp(1) draw is
// spent across pieces, so no draws are wasted as by thinning. REQUIRES: as ArrivalPlan.
double NextArrival(const std::vector<RatePiece>& rate, double t, Rng* rng);

// The arrivals of `plan`, in time order. Draws per arrival, in this order: the inter-arrival
// time, the class (only when there are several), the run time (only when the class has a
// distribution). Returns nullopt when more than `max_arrivals` would be generated.
std::optional<std::vector<Arrival>> GenerateArrivals(const ArrivalPlan& plan, uint64_t seed,
                                                     int64_t max_arrivals);

}  // namespace migsim
