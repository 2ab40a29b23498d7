#pragma once
// A synthetic scenario for benchmarks: `nodes` p4d.24xlarge nodes with the
// all-balanced MIG config (mixed strategy), and `pods` short inference pods asking for
// 1g.5gb, 2g.10gb or 3g.20gb devices, arriving in waves faster than they drain so the
// queue is deep: the scheduler's hard case.

#include "workloads/scenario.h"

namespace migsim {

Scenario SyntheticMigScenario(int nodes, int pods, uint64_t seed);

// The same arrival pattern on `nodes` p4d.24xlarge nodes with MIG off and nvidia.com/gpu
// time-sliced 10 ways: every start and stop reshapes the speeds of up to ten processes.
Scenario SyntheticTimeSlicedScenario(int nodes, int pods, uint64_t seed);

}  // namespace migsim
