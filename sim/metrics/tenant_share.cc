#include "sim/metrics/tenant_share.h"

#include <cstdint>

namespace migsim {

TenantSummary::TenantSummary(std::span<const PodTemplate> templates,
                             std::span<const std::string> namespaces,
                             std::span<const double> claim_gpu_hours)
    : templates_(templates),
      namespaces_(namespaces),
      pod_count_(namespaces.size(), 0),
      gpu_hours_(claim_gpu_hours.begin(), claim_gpu_hours.end()) {
  gpu_hours_.resize(namespaces.size(), 0);
  for (double h : gpu_hours_) total_ += h;
}

void TenantSummary::Add(const Pod& pod, SimTime end) {
  const auto ns = static_cast<size_t>(templates_[pod.tmpl.value()].namespace_index);
  ++pod_count_[ns];
  if (!WasBound(pod)) return;
  const SimTime until = pod.ended_already() ? pod.ended : end;
  const double hours = pod.gpus * (until - pod.bound).seconds() / 3600;
  gpu_hours_[ns] += hours;
  total_ += hours;
}

std::vector<TenantUsage> TenantSummary::Finish(std::span<const JobStats> jobs_by_namespace,
                                               std::span<const double> late_claim_gpu_hours) {
  for (size_t ns = 0; ns < late_claim_gpu_hours.size() && ns < gpu_hours_.size(); ++ns) {
    gpu_hours_[ns] += late_claim_gpu_hours[ns];
    total_ += late_claim_gpu_hours[ns];
  }
  std::vector<TenantUsage> tenants;
  for (size_t ns = 0; ns < namespaces_.size(); ++ns) {
    if (pod_count_[ns] == 0) continue;
    tenants.push_back({.name = namespaces_[ns],
                       .pods = pod_count_[ns],
                       .gpu_hours = gpu_hours_[ns],
                       .gpu_share = total_ > 0 ? gpu_hours_[ns] / total_ : 0,
                       .jobs = jobs_by_namespace[ns]});
  }
  return tenants;
}

std::vector<TenantUsage> TenantUsages(std::span<const Pod> pods,
                                      std::span<const PodTemplate> templates,
                                      std::span<const std::string> namespaces,
                                      std::span<const JobRecord> jobs, SimTime end,
                                      std::span<const double> claim_gpu_hours) {
  TenantSummary summary(templates, namespaces, claim_gpu_hours);
  for (const Pod& pod : pods) summary.Add(pod, end);
  return summary.Finish(SummarizeJobsByNamespace(jobs, namespaces.size()));
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
