#include "sim/controllers/kueue/kueue_controller.h"

#include <algorithm>
#include <string>

#include "sim/core/check.h"

namespace migsim {

WorkloadId KueueController::RequestAdmission(ClusterApi& api, OwnerId owner, int32_t local_queue,
                                             std::span<const PodSet> pod_sets) {
  MIGSIM_CHECK(local_queue >= 0 && static_cast<size_t>(local_queue) < spec_.local_queues.size() &&
                   !pod_sets.empty(),
               "an admission request without a LocalQueue or pods");
  const std::vector<std::string>& names = spec_.resources;
  WorkloadRequest request{.cluster_queue = spec_.local_queues[local_queue].cluster_queue,
                          .priority = api.pod_template(pod_sets.front().tmpl).priority,
                          .request = std::vector<int64_t>(names.size(), 0)};
  auto add = [&](const std::string& name, int64_t amount) {
    if (amount == 0) return;
    const auto it = std::find(names.begin(), names.end(), name);
    MIGSIM_CHECK(it != names.end(), ("a Kueue workload requests uncovered " + name).c_str());
    request.request[static_cast<size_t>(it - names.begin())] += amount;
  };
  // A workload's request is the sum of its pod sets' (Kueue's Workload .spec.podSets).
  for (const PodSet& set : pod_sets) {
    const PodRequests& r = api.pod_template(set.tmpl).requests;
    add("cpu", set.count * r.cpu_milli);
    add("memory", set.count * r.memory_mib);
    for (const ResourceRequest& e : r.extended) {
      add(api.resources().name(e.resource), int64_t{set.count} * e.count);
    }
  }
  workloads_.emplace_back(owner, std::vector<PodSet>(pod_sets.begin(), pod_sets.end()));
  const auto gpu = std::find(names.begin(), names.end(), "nvidia.com/gpu");
  int64_t pods = 0;
  for (const PodSet& set : pod_sets) pods += set.count;
  notices_.push_back(
      {.change = KueueWorkloadChange::kQueued,
       .cluster_queue = request.cluster_queue,
       .namespace_index = spec_.local_queues[local_queue].namespace_index,
       .pods = pods,
       .gpus = gpu == names.end() ? 0 : request.request[static_cast<size_t>(gpu - names.begin())]});
  const WorkloadId id = kueue_.Add(std::move(request), api.now());
  Tell(api, id, KueueWorkloadChange::kQueued);
  return id;
}

void KueueController::FinishWorkload(ClusterApi& api, WorkloadId workload) {
  const WorkloadRecord::State before = kueue_.workload(workload).state;
  kueue_.Finish(workload, api.now());
  if (before == WorkloadRecord::State::kAdmitted)
    Tell(api, workload, KueueWorkloadChange::kFinished);
  if (before == WorkloadRecord::State::kPending)
    Tell(api, workload, KueueWorkloadChange::kWithdrawn);
}

void KueueController::Tell(ClusterApi& api, WorkloadId workload, KueueWorkloadChange change) {
  KueueWorkloadNotice notice = notices_[workload.value()];
  notice.change = change;
  api.RecordKueueWorkload(notice);
}

TemplateId KueueController::FlavoredTemplate(TemplateId base,
                                             const std::vector<int32_t>& flavors) const {
  std::vector<int32_t> used;
  for (int32_t f : flavors) {
    if (f >= 0) used.push_back(f);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (const migsim::FlavoredTemplate& t : spec_.flavored_templates) {
    if (t.base == base && t.flavors == used) return t.tmpl;
  }
  MIGSIM_CHECK(false, "an admitted template without its flavored copy");
  return base;
}

void KueueController::BeforeCycle(ClusterApi& api) {
  if (!kueue_.dirty()) return;
  for (const KueueDecision& d : kueue_.Admit(api.now())) {
    // A copy: the controller told may ask for admissions during the call.
    const auto [owner, pod_sets] = workloads_[d.workload.value()];
    Tell(api, d.workload,
         d.admitted ? KueueWorkloadChange::kAdmitted : KueueWorkloadChange::kEvicted);
    if (!d.admitted) {
      api.TellEvicted(owner, d.workload);
      continue;
    }
    std::vector<TemplateId> templates;
    for (const PodSet& set : pod_sets) templates.push_back(FlavoredTemplate(set.tmpl, d.flavors));
    api.TellAdmitted(owner, d.workload, templates);
  }
}

}  // namespace migsim
