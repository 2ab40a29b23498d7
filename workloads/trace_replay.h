#pragma once
// Trace replay: pods created at the times a trace recorded them (workload kind "Trace").

#include <string>

#include "sim/engine/controller.h"
#include "workloads/workload_spec.h"

namespace migsim {

// Submits the spec's entries at their times, one timer per distinct time; a pod's tag is
// its entry's index. Pods are never replaced.
class TraceReplay final : public Controller {
 public:
  explicit TraceReplay(TraceSpec spec) : spec_(std::move(spec)) {}
  std::string name() const override { return "Trace/" + spec_.name; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext&, const Pod&) override {}
  std::string PodName(const Pod& pod) const override { return spec_.entries[pod.tag].name; }

 private:
  TraceSpec spec_;
  OwnerId self_;
};

}  // namespace migsim
