#pragma once
// Kueue as a cluster controller: workload controllers ask for admission through
// ControllerContext (the engine forwards to the WorkloadAdmission role), Kueue's decisions
// (KueueAdmission) are taken at the start of every scheduling cycle, before kube-scheduler
// sees the pods, and told to the workload controllers that asked (ClusterApi::TellAdmitted,
// TellEvicted). It owns the run's Kueue objects, its state and its results.

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/controllers/kueue/kueue_admission.h"
#include "sim/engine/cluster_controller.h"
#include "sim/engine/kueue_spec.h"

namespace migsim {

class KueueController final : public ClusterController, public WorkloadAdmission {
 public:
  // REQUIRES: `spec` is valid (the loader's checks); its flavored templates are templates
  // of the run.
  explicit KueueController(KueueSpec spec) : spec_(std::move(spec)), kueue_(spec_) {}
  // KueueAdmission points into spec_.
  KueueController(const KueueController&) = delete;
  KueueController& operator=(const KueueController&) = delete;

  std::string_view name() const override { return "kueue"; }
  // Admits (and evicts) what Kueue would now, telling each workload's controller.
  void BeforeCycle(ClusterApi& api) override;
  WorkloadAdmission* admission() override { return this; }
  WorkloadId RequestAdmission(ClusterApi& api, OwnerId owner, int32_t local_queue,
                              std::span<const PodSet> pod_sets) override;
  void FinishWorkload(ClusterApi& api, WorkloadId workload) override;

  // Kueue's state (workloads, quotas, borrowing): at the end of a run, its results.
  const KueueAdmission& state() const { return kueue_; }

 private:
  // The flavored copy of `base` (KueueSpec::flavored_templates) for the flavors admitted.
  TemplateId FlavoredTemplate(TemplateId base, const std::vector<int32_t>& flavors) const;
  // Reports the workload's change to the run's observers (ClusterApi::RecordKueueWorkload).
  void Tell(ClusterApi& api, WorkloadId workload, KueueWorkloadChange change);

  const KueueSpec spec_;
  KueueAdmission kueue_;
  // Per workload (by WorkloadId): the controller that asked and its pod sets.
  std::vector<std::pair<OwnerId, std::vector<PodSet>>> workloads_;
  // Per workload: its queue, namespace and GPUs, as the observers are told them.
  std::vector<KueueWorkloadNotice> notices_;
};

}  // namespace migsim
