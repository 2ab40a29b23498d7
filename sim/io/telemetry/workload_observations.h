#pragma once
// Pod observations (pod_observations.h) grouped by the workload they belong to: what
// `migsim import` turns into one workload's run times, duty cycle, memory and arrivals, and
// names in its notice when some of that is missing (the workload then runs on defaults).

#include <compare>
#include <string>
#include <vector>

#include "sim/io/telemetry/pod_observations.h"

namespace migsim::telemetry {

struct WorkloadKey {
  std::string namespace_name;
  std::string kind;  // the workload's kind ("Job", "Deployment", ...); "Pod" for a bare pod
  std::string name;  // its name; a bare pod's own name
  auto operator<=>(const WorkloadKey&) const = default;
};

struct WorkloadObservations {
  WorkloadKey key;
  std::vector<size_t> pods;  // indices into PodObservations::pods, in its order
  // How many of its pods lack what the import needs.
  int without_run_time = 0, without_duty_cycle = 0, without_memory = 0;
};

// The workload of `pod`: its `workload` (a ReplicaSet's Deployment resolved), else — a pod
// without an owner, or whose owner no series named — the pod itself, as kind "Pod".
WorkloadKey WorkloadOf(const PodObservation& pod);

// The pods of `observations` grouped by WorkloadOf, sorted by key.
std::vector<WorkloadObservations> GroupByWorkload(const PodObservations& observations);

}  // namespace migsim::telemetry
