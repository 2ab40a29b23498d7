#include "sim/controllers/faults/fault_draws.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/core/check.h"

namespace migsim {
namespace {

// -ln(1 - U): an exponential draw of mean 1 (1 - U is in (0, 1], so the log is finite).
double UnitExponential(Rng& rng) { return -std::log1p(-rng.Uniform()); }

}  // namespace

SimTime DrawTimeToFailure(const FaultProcess& process, Rng& rng) {
  const double e = UnitExponential(rng);
  const double factor = process.shape == 1 ? e : std::pow(e, 1 / process.shape);
  return SimTime::Seconds(process.scale.seconds() * factor);
}

SimTime DrawRepairTime(const FaultProcess& process, Rng& rng) {
  if (!process.repair_exponential) return process.repair;
  return SimTime::Seconds(process.repair.seconds() * UnitExponential(rng));
}

std::vector<uint32_t> ChooseDistinct(uint32_t n, uint32_t k, Rng& rng) {
  MIGSIM_CHECK(k <= n, "cannot choose more values than there are");
  std::vector<uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  for (uint32_t i = 0; i < k; ++i) {
    std::swap(all[i], all[i + rng.Below(n - i)]);
  }
  all.resize(k);
  std::sort(all.begin(), all.end());
  return all;
}

// FNV-1a over the name, mixed into the seed: streams of different names are unrelated.
Rng FaultProcessRng(uint64_t seed, std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return Rng(seed ^ h ^ 0x6a09e667f3bcc909ULL);
}

}  // namespace migsim
