#include "sim/io/telemetry/workload_observations.h"

#include <map>

namespace migsim::telemetry {

WorkloadKey WorkloadOf(const PodObservation& pod) {
  if (pod.workload) return {pod.key.namespace_name, pod.workload->kind, pod.workload->name};
  return {pod.key.namespace_name, "Pod", pod.key.pod};
}

std::vector<WorkloadObservations> GroupByWorkload(const PodObservations& observations) {
  std::map<WorkloadKey, WorkloadObservations> groups;
  for (size_t i = 0; i < observations.pods.size(); ++i) {
    const PodObservation& pod = observations.pods[i];
    const WorkloadKey key = WorkloadOf(pod);
    WorkloadObservations& group = groups[key];
    group.key = key;
    group.pods.push_back(i);
    group.without_run_time += !pod.run_seconds;
    group.without_duty_cycle += !pod.duty_cycle;
    group.without_memory += !pod.peak_memory_mib;
  }
  std::vector<WorkloadObservations> out;
  out.reserve(groups.size());
  for (auto& [key, group] : groups) out.push_back(std::move(group));
  return out;
}

}  // namespace migsim::telemetry
