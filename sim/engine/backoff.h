#pragma once
// Kubernetes' exponential back-off: 10 s, 20 s, 40 s, ... capped.

#include <algorithm>

#include "sim/core/sim_time.h"

namespace migsim {

// The delay before the n-th retry (n >= 1): 10 s * 2^(n-1), at most `cap`.
inline SimTime ExponentialBackoff(int n, SimTime cap) {
  int64_t seconds = 10;
  for (int i = 1; i < n && seconds < cap.micros() / 1'000'000; ++i) seconds *= 2;
  return std::min(SimTime::Seconds(static_cast<double>(seconds)), cap);
}

}  // namespace migsim
