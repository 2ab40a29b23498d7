#include "sim/study/pod_summaries.h"

namespace migsim {

PodSummaries::PodSummaries(const Scenario& scenario, std::span<const TemplateWork> work,
                           std::span<const JobRule> rules, std::span<const double> claim_gpu_hours,
                           size_t exact_limit)
    : run_(work, exact_limit),
      priority_(scenario.templates, scenario.priority_classes, exact_limit),
      jobs_(scenario.templates, rules, scenario.namespaces.size(), exact_limit),
      tenants_(scenario.templates, scenario.namespaces, claim_gpu_hours),
      unserved_(scenario.templates, scenario.namespaces, exact_limit) {}

// Released pods are over: `end` is not read for them.
void PodSummaries::OnPodsReleased(std::span<const Pod> pods) {
  for (const Pod& pod : pods) Add(pod, pod.ended);
}

void PodSummaries::Add(const Pod& pod, SimTime end) {
  run_.Add(pod);
  priority_.Add(pod);
  jobs_.Add(pod);
  tenants_.Add(pod, end);
  unserved_.Add(pod, end);
  if (on_pod) on_pod(pod);
}

void PodSummaries::AddJobsAndTenants(std::span<const double> late_claim_gpu_hours,
                                     RunMetrics& m) {
  JobSummary::Stats jobs = jobs_.Finish();
  m.jobs = jobs.all;
  m.tenants = tenants_.Finish(jobs.by_namespace, late_claim_gpu_hours);
  std::vector<double> hours;
  for (const TenantUsage& t : m.tenants) hours.push_back(t.gpu_hours);
  for (double h : hours) m.gpu_hours += h;
  m.jain_index = JainIndex(hours);
}

}  // namespace migsim
