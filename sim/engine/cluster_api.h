#pragma once
// What a cluster controller (cluster_controller.h) may read of the cluster and the verbs it
// may use: the API server's side of the seam. In Kubernetes the Cluster Autoscaler,
// Karpenter, Kueue, the GPU Operator's MIG manager and whatever kills nodes are separate
// processes that see the cluster through the API server and change it through its verbs;
// here each is a ClusterController that sees it through a ClusterApi.
//
// The engine gives each controller its own ClusterApi (timers come back to the controller
// that set them) and checks every verb as it checks a policy's decision: a verb used against
// its REQUIRES is an internal error (MIGSIM_CHECK), never a silent change.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/cluster/mig_config.h"
#include "sim/core/ids.h"
#include "sim/core/sim_time.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/kueue_spec.h"
#include "sim/engine/node_runtime.h"
#include "sim/engine/pod.h"
#include "sim/policy/cluster_view.h"
#include "sim/policy/resources.h"

namespace migsim {

// What a timer is to the end of a run without a horizon, which ends when only idle events
// are left. kActive: it keeps the run going. kIdle: it does not, unless its controller
// MayAct() then (an autoscaler's periodic scan). kIdleWithoutHorizon: as kIdle in a run
// without a horizon, kActive in one with a horizon, where it runs up to the horizon like any
// event (a failure process's next draw: failures no work is left to suffer).
enum class TimerKind : uint8_t { kActive, kIdle, kIdleWithoutHorizon };

class ClusterApi {
 public:
  // Reading.
  virtual SimTime now() const = 0;
  // The run's seed: a controller seeds its own random streams from it (each with a
  // constant of its own), so that its draws neither shift nor are shifted by others'.
  virtual uint64_t seed() const = 0;
  virtual const ClusterSpec& cluster() const = 0;
  virtual std::span<const Pod> pods() const = 0;
  virtual std::span<const NodeInfo> nodes() const = 0;
  virtual const NodeRuntime& node_runtime(NodeId node) const = 0;
  virtual const PodTemplate& pod_template(TemplateId tmpl) const = 0;
  virtual const ResourceTable& resources() const = 0;
  // When the MIG change under way on `node` ends (<= now(): none is).
  virtual SimTime reconfiguring_until(NodeId node) const = 0;

  // Calls this controller's OnTimer(tag) at `at`. REQUIRES: at >= now().
  virtual void SetTimer(SimTime at, uint64_t tag, TimerKind kind = TimerKind::kActive) = 0;

  // The MIG manager's mechanism (the engine's: nvidia.com/mig.config applied by mig-parted).
  // BeginMigChange starts applying `target` to `node`, labelled `config`, for `duration`: gang
  // reservations there are released, pods on the GPUs that change lose their device (ended
  // DeviceLost at once, their lost GPU time booked to `book`) and the device plugin is
  // withdrawn. REQUIRES: the node is not reconfiguring.
  virtual void BeginMigChange(NodeId node, const std::vector<GpuMigSetting>& target,
                              const std::string& config, SimTime duration, LossBook book) = 0;
  // A repartition a policy asked for (Policy::PostFilter) that the engine validated: every
  // busy GPU instance keeps its placement, so no pod loses its device; the device plugin is
  // withdrawn until `until`. REQUIRES: the node is not reconfiguring, until >= now().
  virtual void BeginMigRepartition(NodeId node, const std::string& config, SimTime until) = 0;
  // The change under way on `node` is applied: `gpus` (labelled `config`) become its
  // layouts, devices are rebuilt, surviving pods follow theirs, pending pods are retried.
  virtual void FinishMigChange(NodeId node, const std::vector<GpuMigSetting>& gpus,
                               const std::string& config) = 0;

  // Kueue's verdicts, told to the workload controller that asked (ControllerContext::
  // RequestAdmission): admitted with, per pod set, the template to create its pods from;
  // or evicted (it deletes its pods gracefully and waits to be admitted again).
  virtual void TellAdmitted(OwnerId owner, WorkloadId workload,
                            std::span<const TemplateId> templates) = 0;
  virtual void TellEvicted(OwnerId owner, WorkloadId workload) = 0;

 protected:
  ~ClusterApi() = default;
};

}  // namespace migsim
