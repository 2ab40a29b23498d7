#include "sim/metrics/tenant_share.h"

#include <cstdint>

namespace migsim {

std::vector<TenantUsage> TenantUsages(std::span<const Pod> pods,
                                      std::span<const PodTemplate> templates,
                                      std::span<const std::string> namespaces,
                                      std::span<const JobRecord> jobs, SimTime end,
                                      std::span<const double> claim_gpu_hours) {
  std::vector<int64_t> pod_count(namespaces.size(), 0);
  std::vector<double> gpu_hours(claim_gpu_hours.begin(), claim_gpu_hours.end());
  gpu_hours.resize(namespaces.size(), 0);
  double total = 0;
  for (double h : gpu_hours) total += h;
  for (const Pod& pod : pods) {
    const auto ns = static_cast<size_t>(templates[pod.tmpl.value()].namespace_index);
    ++pod_count[ns];
    if (!WasBound(pod)) continue;
    const SimTime until = pod.ended_already() ? pod.ended : end;
    const double hours = pod.gpus * (until - pod.bound).seconds() / 3600;
    gpu_hours[ns] += hours;
    total += hours;
  }
  const std::vector<JobStats> jobs_by_ns = SummarizeJobsByNamespace(jobs, namespaces.size());
  std::vector<TenantUsage> tenants;
  for (size_t ns = 0; ns < namespaces.size(); ++ns) {
    if (pod_count[ns] == 0) continue;
    tenants.push_back({.name = namespaces[ns],
                       .pods = pod_count[ns],
                       .gpu_hours = gpu_hours[ns],
                       .gpu_share = total > 0 ? gpu_hours[ns] / total : 0,
                       .jobs = jobs_by_ns[ns]});
  }
  return tenants;
}

std::optional<double> JainIndex(std::span<const double> x) {
  double sum = 0, squares = 0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  if (squares <= 0) return std::nullopt;
  return sum * sum / (static_cast<double>(x.size()) * squares);
}

}  // namespace migsim
