#pragma once
#include <vector>

#include "sim/engine/controller.h"
#include "workloads/workload_spec.h"

namespace migsim {

// A Deployment (its ReplicaSet): keeps `replicas` pods alive. Scaling down deletes
// pending pods first, then those not ready (starting or crash-looping, most restarts
// first), then the newest running ones, as the ReplicaSet controller ranks them. A failed pod is replaced after a back-off that grows with the Deployment's
// failures (0 s for the first, then 10 s, 20 s, ... capped at 5 min), which also bounds
// the replace-fail loop of pods rejected at admission.
class Deployment final : public Controller {
 public:
  explicit Deployment(DeploymentSpec spec) : spec_(std::move(spec)) {}
  std::string name() const override { return "Deployment/" + spec_.name; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext& ctx, const Pod& pod) override;
  std::string PodName(const Pod& pod) const override;

 private:
  static constexpr uint64_t kReconcile = ~uint64_t{0};
  void Reconcile(ControllerContext& ctx);
  void ScaleDown(ControllerContext& ctx, size_t surplus);
  void Forget(PodId pod);

  DeploymentSpec spec_;
  OwnerId self_;
  int desired_ = 0;
  int failures_ = 0;
  uint32_t next_ordinal_ = 0;
  std::vector<PodId> live_;  // pods not ended, in creation order
  // Preempted replicas not yet recreated: what each hands to its replacement (LAS's
  // attained service; Deployment pods keep no work).
  std::vector<Handover> handovers_;
};

}  // namespace migsim
