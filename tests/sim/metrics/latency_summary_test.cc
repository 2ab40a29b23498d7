// Streaming summaries of per-pod values: exact up to their limit, a quantile sketch with a
// guaranteed relative error past it.
#include "sim/metrics/latency_summary.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "sim/metrics/quantile_sketch.h"

namespace migsim {
namespace {

// Latency-like values: log-normal over six decades, some zeros, repeated values.
std::vector<double> Values(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> spread(3.0, 2.5);
  std::vector<double> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const double x = spread(rng);
    v.push_back(i % 97 == 0 ? 0.0 : i % 13 == 0 ? std::round(x) : x);
  }
  return v;
}

bool Within(double estimate, double exact, double alpha) {
  return std::abs(estimate - exact) <= alpha * std::abs(exact) * (1 + 1e-9);
}

}  // namespace

TEST_CASE("a latency summary within its exact limit gives ComputeLatency's statistics bit for bit",
          "[metrics][sketch]") {
  const std::vector<double> v = Values(5000, 1);
  LatencySummary summary(5000);
  for (double x : v) summary.Add(x);
  const LatencyStats got = summary.Finish();
  const LatencyStats want = ComputeLatency(v);
  CHECK(got.count == want.count);
  CHECK(got.mean_s == want.mean_s);
  CHECK(got.p50_s == want.p50_s);
  CHECK(got.p95_s == want.p95_s);
  CHECK(got.p99_s == want.p99_s);
  CHECK(got.max_s == want.max_s);
  CHECK(got.relative_error == 0);
}

TEST_CASE("past its exact limit every percentile is within the stated relative error of the exact one",
          "[metrics][sketch]") {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const std::vector<double> v = Values(100'000, seed);
    LatencySummary summary(1000, 0.005);
    for (double x : v) summary.Add(x);
    const LatencyStats got = summary.Finish();
    const LatencyStats want = ComputeLatency(v);
    CHECK(got.relative_error == 0.005);
    CHECK(got.count == want.count);
    CHECK(got.max_s == want.max_s);
    CHECK(got.mean_s == Approx(want.mean_s).epsilon(1e-12));
    CHECK(Within(got.p50_s, want.p50_s, 0.005));
    CHECK(Within(got.p95_s, want.p95_s, 0.005));
    CHECK(Within(got.p99_s, want.p99_s, 0.005));
    // A bound that can fail: a coarser sketch is further off than the fine one's bound.
    LatencySummary coarse(1000, 0.2);
    for (double x : v) coarse.Add(x);
    CHECK_FALSE(Within(coarse.Finish().p50_s, want.p50_s, 0.005));
  }
}

TEST_CASE("a quantile sketch ranks negative values, zeros and positive values in order",
          "[metrics][sketch]") {
  QuantileSketch sketch(0.01);
  for (double x : {-100.0, -1.0, 0.0, 0.0, 2.0, 50.0, 1000.0, 1000.0}) sketch.Add(x);
  CHECK(Within(sketch.Quantile(0.125), -100, 0.01));
  CHECK(Within(sketch.Quantile(0.25), -1, 0.01));
  CHECK(sketch.Quantile(0.5) == 0);
  CHECK(Within(sketch.Quantile(0.625), 2, 0.01));
  CHECK(Within(sketch.Quantile(0.75), 50, 0.01));
  CHECK(sketch.Quantile(1.0) == 1000);  // never past the largest value
  CHECK(sketch.count() == 8);
}

TEST_CASE("every value of a sketch's range is read back within its relative error",
          "[metrics][sketch]") {
  const double alpha = 0.005;
  for (double x = 1e-6; x < 1e9; x *= 1.0007) {
    QuantileSketch one(alpha);
    one.Add(x);
    one.Add(x * 2);  // so that the estimate is not clamped to the only value
    REQUIRE(Within(one.Quantile(0.5), x, alpha));
  }
}

}  // namespace migsim
