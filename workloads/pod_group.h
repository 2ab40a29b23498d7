#pragma once
#include "sim/engine/controller.h"
#include "workloads/workload_spec.h"

namespace migsim {

// Bare pods (restartPolicy: Never): created once, never replaced.
class PodGroup final : public Controller {
 public:
  explicit PodGroup(PodGroupSpec spec) : spec_(std::move(spec)) {}
  std::string name() const override { return "Pod/" + spec_.name; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext&, const Pod&) override {}
  std::string PodName(const Pod& pod) const override;
  bool RecreatesPods() const override { return false; }

 private:
  PodGroupSpec spec_;
  OwnerId self_;
};

}  // namespace migsim
