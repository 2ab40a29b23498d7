#pragma once
// The faults' random draws (fault_spec.h's FaultProcess, FaultTarget): times to failure and
// repair of a failure process, a pool's members hit by a scripted fault, and each
// process's own random stream.

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/rng.h"
#include "sim/core/sim_time.h"
#include "sim/engine/fault_spec.h"

namespace migsim {

// A time to failure of `process`: Weibull by inversion, scale x (-ln(1 - U))^(1 / shape).
SimTime DrawTimeToFailure(const FaultProcess& process, Rng& rng);
// A repair time of `process`: fixed, or exponential with mean `repair`.
SimTime DrawRepairTime(const FaultProcess& process, Rng& rng);
// `k` distinct values of [0, n), in increasing order (a partial Fisher-Yates shuffle).
// REQUIRES: k <= n.
std::vector<uint32_t> ChooseDistinct(uint32_t n, uint32_t k, Rng& rng);
// The random stream of failure process `name` in a run seeded with `seed`: its own, so
// that adding a process changes no other draw.
Rng FaultProcessRng(uint64_t seed, std::string_view name);

}  // namespace migsim
