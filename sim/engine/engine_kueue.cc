// Kueue in the engine: controllers ask for admission through ControllerContext, Kueue's
// decisions (KueueAdmission) are taken at the start of every scheduling cycle, before
// kube-scheduler sees the pods, and told to the controllers.

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

WorkloadId Engine::RequestAdmission(OwnerId owner, int32_t local_queue,
                                    std::span<const PodSet> pod_sets) {
  MIGSIM_CHECK(kueue_ != nullptr && local_queue >= 0 &&
                   static_cast<size_t>(local_queue) < kueue_spec_->local_queues.size() &&
                   !pod_sets.empty(),
               "an admission request without Kueue, a LocalQueue or pods");
  const std::vector<std::string>& names = kueue_spec_->resources;
  WorkloadRequest request{.cluster_queue = kueue_spec_->local_queues[local_queue].cluster_queue,
                          .priority = templates_[pod_sets.front().tmpl.value()].priority,
                          .request = std::vector<int64_t>(names.size(), 0)};
  auto add = [&](const std::string& name, int64_t amount) {
    if (amount == 0) return;
    const auto it = std::find(names.begin(), names.end(), name);
    MIGSIM_CHECK(it != names.end(), ("a Kueue workload requests uncovered " + name).c_str());
    request.request[static_cast<size_t>(it - names.begin())] += amount;
  };
  for (const PodSet& set : pod_sets) {
    const PodRequests& r = templates_[set.tmpl.value()].requests;
    add("cpu", set.count * r.cpu_milli);
    add("memory", set.count * r.memory_mib);
    for (const ResourceRequest& e : r.extended) {
      add(resources_.name(e.resource), int64_t{set.count} * e.count);
    }
  }
  kueue_workloads_.emplace_back(owner, std::vector<PodSet>(pod_sets.begin(), pod_sets.end()));
  return kueue_->Add(std::move(request), now_);
}

void Engine::FinishWorkload(WorkloadId workload) { kueue_->Finish(workload, now_); }

TemplateId Engine::FlavoredTemplate(TemplateId base, const std::vector<int32_t>& flavors) const {
  std::vector<int32_t> used;
  for (int32_t f : flavors) {
    if (f >= 0) used.push_back(f);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (const migsim::FlavoredTemplate& t : kueue_spec_->flavored_templates) {
    if (t.base == base && t.flavors == used) return t.tmpl;
  }
  MIGSIM_CHECK(false, "an admitted template without its flavored copy");
  return base;
}

void Engine::AdmitWorkloads() {
  if (kueue_ == nullptr || !kueue_->dirty()) return;
  for (const KueueDecision& d : kueue_->Admit(now_)) {
    // A copy: the controller may ask for admissions during the call.
    const auto [owner, pod_sets] = kueue_workloads_[d.workload.value()];
    Controller& controller = *controllers_[owner.value()];
    if (!d.admitted) {
      controller.OnEvicted(*this, d.workload);
      continue;
    }
    std::vector<TemplateId> templates;
    for (const PodSet& set : pod_sets) templates.push_back(FlavoredTemplate(set.tmpl, d.flavors));
    controller.OnAdmitted(*this, d.workload, templates);
  }
}

}  // namespace migsim
