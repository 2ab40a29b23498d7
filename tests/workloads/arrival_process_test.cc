// The sampling behind Arrivals workloads: the distributions' means, the Poisson rate (constant
// and piecewise), the class mix, and determinism.

#include "workloads/arrival_process.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace migsim {
namespace {

constexpr int kDraws = 200'000;

double MeanOf(const RunTimeDistribution& d, uint64_t seed) {
  Rng rng(seed);
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) sum += d.Sample(&rng);
  return sum / kDraws;
}

ArrivalPlan OneClass(std::vector<RatePiece> rate) {
  return ArrivalPlan{.rate = std::move(rate),
                     .count = kDraws,
                     .until_s = std::nullopt,
                     .class_weights = {1},
                     .class_runs = {std::nullopt}};
}

}  // namespace

TEST_CASE("FNV-1a hashes text to the published 64-bit values", "[arrivals]") {
  CHECK(Fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(Fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(Fnv1a64("foobar") == 0x85944171f73967e8ull);
}

TEST_CASE("mixing a seed with different salts or different seeds gives different seeds",
          "[arrivals]") {
  CHECK(MixSeed(1, Fnv1a64("a")) != MixSeed(1, Fnv1a64("b")));
  CHECK(MixSeed(1, Fnv1a64("a")) != MixSeed(2, Fnv1a64("a")));
  CHECK(MixSeed(1, Fnv1a64("a")) == MixSeed(1, Fnv1a64("a")));
}

TEST_CASE("run-time distributions have the mean they are given", "[arrivals]") {
  SECTION("a constant is always itself") {
    Rng rng(1);
    CHECK(RunTimeDistribution::Constant(600).Sample(&rng) == 600);
  }
  SECTION("the exponential's sample mean is within 1 %") {
    CHECK(MeanOf(RunTimeDistribution::Exponential(600), 7) == Approx(600).epsilon(0.01));
  }
  SECTION("the lognormal's sample mean is within 2 %, sigma 1 and 0.5") {
    CHECK(MeanOf(RunTimeDistribution::Lognormal(600, 1.0), 7) == Approx(600).epsilon(0.02));
    CHECK(MeanOf(RunTimeDistribution::Lognormal(600, 0.5), 8) == Approx(600).epsilon(0.02));
  }
  SECTION("an empirical distribution draws each value about equally often") {
    const RunTimeDistribution d = RunTimeDistribution::Empirical({10, 20, 60});
    CHECK(MeanOf(d, 3) == Approx(30).epsilon(0.01));
  }
}

TEST_CASE("the standard normal has mean 0 and variance 1", "[arrivals]") {
  Rng rng(11);
  double sum = 0, squares = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double z = SampleStandardNormal(&rng);
    sum += z;
    squares += z * z;
  }
  CHECK(std::fabs(sum / kDraws) < 0.01);
  CHECK(squares / kDraws == Approx(1).epsilon(0.01));
}

TEST_CASE("a constant-rate process of 200,000 arrivals has its rate within 1 %, in time order",
          "[arrivals]") {
  const double rate = 0.010667;
  const auto arrivals = GenerateArrivals(OneClass({{0, rate}}), 42, kDraws);
  REQUIRE(arrivals);
  REQUIRE(arrivals->size() == kDraws);
  for (size_t i = 1; i < arrivals->size(); ++i) {
    REQUIRE((*arrivals)[i - 1].at_s <= (*arrivals)[i].at_s);
  }
  CHECK(kDraws / arrivals->back().at_s == Approx(rate).epsilon(0.01));
  CHECK_FALSE(arrivals->front().run_s);  // no distribution: no run time drawn
}

TEST_CASE("a piecewise rate gives each piece its expected number of arrivals", "[arrivals]") {
  // 1/s for 10,000 s, 5/s for 10,000 s, then 0.5/s: expected 10,000, 50,000, 5,000 by 30,000 s.
  ArrivalPlan plan = OneClass({{0, 1}, {10'000, 5}, {20'000, 0.5}});
  plan.count.reset();
  plan.until_s = 30'000;
  const auto arrivals = GenerateArrivals(plan, 5, kDraws);
  REQUIRE(arrivals);
  int pieces[3] = {0, 0, 0};
  for (const Arrival& a : *arrivals) ++pieces[a.at_s < 10'000 ? 0 : a.at_s < 20'000 ? 1 : 2];
  CHECK(pieces[0] == Approx(10'000).epsilon(0.03));
  CHECK(pieces[1] == Approx(50'000).epsilon(0.03));
  CHECK(pieces[2] == Approx(5'000).epsilon(0.03));
  CHECK(arrivals->back().at_s < 30'000);
}

TEST_CASE("the next arrival crosses rate pieces by the integrated rate", "[arrivals]") {
  // From 0.5 s into a piece of rate 1 ending at 1 s, then rate 1000: an Exp(1) draw above 0.5
  // lands in the second piece, at 1 + (E − 0.5) / 1000.
  const std::vector<RatePiece> rate = {{0, 1}, {1, 1000}};
  Rng a(3), b(3);
  for (int i = 0; i < 1000; ++i) {
    const double e = SampleExponential(&b, 1.0);
    const double next = NextArrival(rate, 0.5, &a);
    CHECK(next == Approx(e < 0.5 ? 0.5 + e : 1 + (e - 0.5) / 1000).epsilon(1e-12));
  }
}

TEST_CASE("classes are picked in proportion to their weights, within 1 %", "[arrivals]") {
  ArrivalPlan plan = OneClass({{0, 1}});
  plan.class_weights = {3, 7};  // normalised: 0.3, 0.7
  plan.class_runs = {RunTimeDistribution::Constant(1), RunTimeDistribution::Constant(2)};
  const auto arrivals = GenerateArrivals(plan, 9, kDraws);
  REQUIRE(arrivals);
  int high = 0;
  for (const Arrival& a : *arrivals) {
    if (a.cls == 0) ++high;
    REQUIRE(a.run_s == (a.cls == 0 ? 1 : 2));
  }
  CHECK(static_cast<double>(high) / kDraws == Approx(0.3).epsilon(0.01));
}

TEST_CASE("the same seed gives the same arrivals and another seed different ones", "[arrivals]") {
  ArrivalPlan plan = OneClass({{0, 2}});
  plan.count = 1000;
  plan.class_runs = {RunTimeDistribution::Lognormal(60, 1)};
  const auto first = GenerateArrivals(plan, 1, 1000);
  const auto again = GenerateArrivals(plan, 1, 1000);
  const auto other = GenerateArrivals(plan, 2, 1000);
  REQUIRE((first && again && other));
  for (size_t i = 0; i < first->size(); ++i) {
    REQUIRE((*first)[i].at_s == (*again)[i].at_s);
    REQUIRE((*first)[i].run_s == (*again)[i].run_s);
  }
  CHECK((*first)[0].at_s != (*other)[0].at_s);
}

TEST_CASE("generating past the most arrivals allowed gives nothing", "[arrivals]") {
  ArrivalPlan plan = OneClass({{0, 100}});
  plan.count.reset();
  plan.until_s = 100;  // about 10,000 arrivals
  CHECK_FALSE(GenerateArrivals(plan, 1, 5000));
  CHECK(GenerateArrivals(plan, 1, 20000));
}

}  // namespace migsim
