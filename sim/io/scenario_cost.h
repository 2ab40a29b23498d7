#pragma once
// What a scenario will create, estimated from its specification before it runs: pods
// (before retries and with every retry used), faults that hit, GPU devices. The loader
// refuses a scenario whose estimate exceeds a limit (input_limits.h), naming the element
// that multiplies, so that a few hundred bytes cannot ask for more than memory holds;
// what cannot be known in advance is bounded while running (RunBudget, sim/engine).

#include <cstdint>

#include "sim/engine/cluster_spec.h"
#include "sim/io/json_reader.h"
#include "workloads/scenario.h"

namespace migsim::io {

// The pods a workload creates before retries: a Deployment's initial replicas and every
// scale-up after them (pods a scale-down deleted are not reused: each scale-up creates
// new ones), a Workflow's one pod per step or item.
int64_t PodsBeforeRetries(const WorkloadSpec& workload);
int64_t PodsBeforeRetries(const Scenario& scenario);

// The most pods a workload creates were every retry it allows used: a Job's completions
// plus its backoffLimit + 1 failures, a Workflow item's 1 + retryStrategy.limit attempts,
// a DistributedJob's workers x (1 + backoffLimit) (a failure restarts the whole gang).
// In double: 10^6 items x 10^6 retries must not overflow.
double PodsWithRetries(const WorkloadSpec& workload);

// The GPU devices one node may hold: a MIG-capable GPU as its most instances (its compute
// slices), another as one.
int64_t GpuDevices(const NodeSpec& node);

// The faults a failure process is expected to hit before `horizon` (SimTime::Max(): 0,
// unknown; the run's budget bounds it): each GPU (gpu-unhealthy) or node fails once per
// mean time to failure plus repair.
double ExpectedFaultHits(const FaultProcess& process, const ClusterSpec& cluster, SimTime horizon);

// Refuses, at the element that multiplies, a scenario whose pods (before retries and with
// them) or faults exceed the limits. The GPU devices are checked as the pools are read
// (cluster_json.cc), before their nodes are made.
void CheckScenarioCost(LoadContext* ctx, const Scenario& scenario);

}  // namespace migsim::io
