#include "workloads/arrival_process.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "sim/core/check.h"

namespace migsim {

uint64_t Fnv1a64(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

uint64_t MixSeed(uint64_t seed, uint64_t salt) {
  // SplitMix64's finaliser: mt19937_64 seeded with seeds that differ in a few bits starts
  // correlated streams, so the seed is scrambled first.
  uint64_t z = seed ^ (salt + 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// 1 − U is in (0, 1], so the logarithm is finite.
double SampleExponential(Rng* rng, double mean) { return -mean * std::log(1.0 - rng->Uniform()); }

double SampleStandardNormal(Rng* rng) {
  const double radius = std::sqrt(-2.0 * std::log(1.0 - rng->Uniform()));
  return radius * std::cos(2.0 * std::numbers::pi * rng->Uniform());
}

double SampleLognormal(Rng* rng, double mean, double sigma) {
  const double mu = std::log(mean) - sigma * sigma / 2;
  return std::exp(mu + sigma * SampleStandardNormal(rng));
}

RunTimeDistribution RunTimeDistribution::Constant(double s) {
  RunTimeDistribution d;
  d.kind_ = Kind::kConstant;
  d.mean_s_ = s;
  return d;
}

RunTimeDistribution RunTimeDistribution::Exponential(double mean_s) {
  RunTimeDistribution d;
  d.kind_ = Kind::kExponential;
  d.mean_s_ = mean_s;
  return d;
}

RunTimeDistribution RunTimeDistribution::Lognormal(double mean_s, double sigma) {
  RunTimeDistribution d;
  d.kind_ = Kind::kLognormal;
  d.mean_s_ = mean_s;
  d.sigma_ = sigma;
  return d;
}

RunTimeDistribution RunTimeDistribution::Empirical(std::vector<double> values_s) {
  MIGSIM_CHECK(!values_s.empty(), "an empirical distribution needs values");
  RunTimeDistribution d;
  d.kind_ = Kind::kEmpirical;
  d.values_s_ = std::move(values_s);
  return d;
}

double RunTimeDistribution::Mean() const {
  if (kind_ != Kind::kEmpirical) return mean_s_;
  double sum = 0;
  for (double v : values_s_) sum += v;
  return sum / static_cast<double>(values_s_.size());
}

double RunTimeDistribution::SecondMoment() const {
  switch (kind_) {
    case Kind::kConstant:
      return mean_s_ * mean_s_;
    case Kind::kExponential:
      return 2 * mean_s_ * mean_s_;
    case Kind::kLognormal:  // E[S²] = exp(2 mu + 2 sigma²) = mean² exp(sigma²)
      return mean_s_ * mean_s_ * std::exp(sigma_ * sigma_);
    case Kind::kEmpirical:
      break;
  }
  double sum = 0;
  for (double v : values_s_) sum += v * v;
  return sum / static_cast<double>(values_s_.size());
}

double RunTimeDistribution::Sample(Rng* rng) const {
  switch (kind_) {
    case Kind::kConstant:
      return mean_s_;
    case Kind::kExponential:
      return SampleExponential(rng, mean_s_);
    case Kind::kLognormal:
      return SampleLognormal(rng, mean_s_, sigma_);
    case Kind::kEmpirical:
      return values_s_[rng->Below(values_s_.size())];
  }
  return mean_s_;
}

double NextArrival(const std::vector<RatePiece>& rate, double t, Rng* rng) {
  // The piece holding t: the last one starting at or before it.
  auto piece = std::upper_bound(rate.begin(), rate.end(), t,
                                [](double time, const RatePiece& p) { return time < p.from_s; });
  MIGSIM_CHECK(piece != rate.begin(), "a rate must start at 0");
  --piece;
  // Spend one unit-rate exponential over the integrated rate: in a piece of rate r and
  // length L it covers r · L of it.
  double left = SampleExponential(rng, 1.0);
  for (;;) {
    const auto next = std::next(piece);
    if (next == rate.end() || left < piece->per_s * (next->from_s - t)) {
      return t + left / piece->per_s;
    }
    left -= piece->per_s * (next->from_s - t);
    t = next->from_s;
    piece = next;
  }
}

namespace {

// Cumulative normalised weights; the last is exactly 1.
std::vector<double> Cumulative(const std::vector<double>& weights) {
  double total = 0;
  for (const double w : weights) total += w;
  std::vector<double> cumulative;
  double sum = 0;
  for (const double w : weights) cumulative.push_back((sum += w) / total);
  cumulative.back() = 1.0;
  return cumulative;
}

uint32_t PickClass(const std::vector<double>& cumulative, Rng* rng) {
  if (cumulative.size() == 1) return 0;
  const double u = rng->Uniform();
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
  return static_cast<uint32_t>(std::min<size_t>(it - cumulative.begin(), cumulative.size() - 1));
}

}  // namespace

std::optional<std::vector<Arrival>> GenerateArrivals(const ArrivalPlan& plan, uint64_t seed,
                                                     int64_t max_arrivals) {
  MIGSIM_CHECK(plan.count || plan.until_s, "arrivals need a count or an end");
  MIGSIM_CHECK(plan.class_weights.size() == plan.class_runs.size(), "one run time per class");
  Rng rng(seed);
  const std::vector<double> cumulative = Cumulative(plan.class_weights);
  std::vector<Arrival> arrivals;
  if (plan.count) arrivals.reserve(static_cast<size_t>(std::min(*plan.count, max_arrivals)));
  double t = 0;
  while (!plan.count || static_cast<int64_t>(arrivals.size()) < *plan.count) {
    t = NextArrival(plan.rate, t, &rng);
    if (plan.until_s && t >= *plan.until_s) break;
    if (static_cast<int64_t>(arrivals.size()) >= max_arrivals) return std::nullopt;
    Arrival& a = arrivals.emplace_back();
    a.at_s = t;
    a.cls = PickClass(cumulative, &rng);
    if (const auto& run = plan.class_runs[a.cls]) a.run_s = run->Sample(&rng);
  }
  return arrivals;
}

}  // namespace migsim
