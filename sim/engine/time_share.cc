#include "sim/engine/time_share.h"

#include <algorithm>
#include <numeric>

namespace migsim {

std::vector<double> MaxMinShares(std::span<const double> demands) {
  const size_t n = demands.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Smallest demands first: each gets min(demand, an equal split of what is left).
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return demands[a] < demands[b]; });
  std::vector<double> share(n, 0.0);
  double left = 1.0;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = order[k];
    share[i] = std::min(demands[i], left / static_cast<double>(n - k));
    left -= share[i];
  }
  return share;
}

std::vector<double> MpsShares(std::span<const double> demands, int replicas) {
  // floor(100 / replicas) percent, as the plugin sets it.
  const double cap = static_cast<double>(100 / replicas) / 100.0;
  std::vector<double> share;
  share.reserve(demands.size());
  for (double d : demands) share.push_back(std::min(d, cap));
  return share;
}

std::vector<double> CappedFairShares(std::span<const double> demands, double cap) {
  std::vector<double> capped;
  capped.reserve(demands.size());
  for (double d : demands) capped.push_back(std::min(d, cap));
  return MaxMinShares(capped);
}

std::vector<double> CappedShares(std::span<const double> demands, std::span<const double> caps) {
  std::vector<double> share;
  share.reserve(demands.size());
  for (size_t i = 0; i < demands.size(); ++i) share.push_back(std::min(demands[i], caps[i]));
  return share;
}

double TimeSlicedSpeed(double share, double demand, int processes, double switch_overhead) {
  double speed = share / demand;
  if (processes > 1) speed *= 1.0 - switch_overhead;
  return speed;
}

}  // namespace migsim
