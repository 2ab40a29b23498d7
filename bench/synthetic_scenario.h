#pragma once
// A synthetic scenario for benchmarks: `nodes` p4d.24xlarge nodes with the
// all-balanced MIG config (mixed strategy), and `pods` short inference pods asking for
// 1g.5gb, 2g.10gb or 3g.20gb devices, arriving in waves faster than they drain so the
// queue is deep: the scheduler's hard case.

#include "workloads/scenario.h"

namespace migsim {

Scenario SyntheticMigScenario(int nodes, int pods, uint64_t seed);

// The MIG scenario grown with the cluster: waves of 10 pods per node every 10 s (as the
// 100-node scenario's 1,000), so the queue is as deep, relative to the cluster, at any
// size. With 1,000 and 10,000 nodes: bench/scenarios/mig-1m.json and mig-10m.json.
// REQUIRES: `nodes` a multiple of 100.
Scenario SyntheticMigScenarioAtScale(int nodes, int pods, uint64_t seed);

// The same arrival pattern on `nodes` p4d.24xlarge nodes with MIG off and nvidia.com/gpu
// time-sliced 10 ways: every start and stop reshapes the speeds of up to ten processes.
Scenario SyntheticTimeSlicedScenario(int nodes, int pods, uint64_t seed);

// The MIG scenario at scale, for preemption: waves of 10 pods per node every 10 s (so
// the backlog grows as with 100 nodes and 1,000-pod waves), each wave split 60 : 30 : 10
// over three priority classes (0, 1,000 and 1,000,000; preemptionPolicy
// PreemptLowerPriority, default grace period). With `priorities` false every pod has
// priority 0: the same pods, nobody preempts.
Scenario SyntheticPriorityScenario(int nodes, int pods, bool priorities, uint64_t seed);

}  // namespace migsim
