#pragma once
// Typed notifications from the engine. Metrics and writers are observers that live
// outside the engine; the engine itself never prints.

#include <cstdint>
#include <span>

#include "sim/core/sim_time.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/pod.h"

namespace migsim {

// A fault hitting a node or one of its GPUs, or the node or GPU coming back.
struct FaultNotice {
  FaultKind kind = FaultKind::kNodeLost;
  bool repaired = false;  // false: the fault hits; true: the node (or GPU) is back
  NodeId node;
  int gpu = -1;  // the GPU (kGpuUnhealthy), else -1
};

// A node group's node changing state (the node groups' controller, sim/controllers/node_groups).
enum class NodeScaleChange : uint8_t {
  kLaunched,      // a scale-up launched it: billed from now
  kReady,         // it registered Ready: schedulable
  kDrainStarted,  // a scale-down cordoned it and evicts its pods
  kDrainAborted,  // the scale-down gave up (evictions refused): uncordoned
  kTerminated,    // scaled down, or never Ready: not billed from now
};

// A Kueue workload changing state (the Kueue controller, sim/controllers/kueue): queued in its
// ClusterQueue (waiting for admission), admitted (its quota held), evicted (back to waiting),
// finished while admitted (its quota released) or withdrawn while waiting.
enum class KueueWorkloadChange : uint8_t { kQueued, kAdmitted, kEvicted, kFinished, kWithdrawn };

struct KueueWorkloadNotice {
  KueueWorkloadChange change = KueueWorkloadChange::kQueued;
  int32_t cluster_queue = 0;    // index in KueueSpec::cluster_queues
  int32_t namespace_index = 0;  // its LocalQueue's namespace (PodTemplate::namespace_index)
  int64_t pods = 0;             // its pod sets' pods
  int64_t gpus = 0;             // the whole workload's nvidia.com/gpu request
};

class EngineObserver {
 public:
  virtual ~EngineObserver() = default;
  virtual void OnPodSubmitted(SimTime, const Pod&) {}
  virtual void OnPodBound(SimTime, const Pod&) {}
  virtual void OnPodStarted(SimTime, const Pod&) {}
  virtual void OnPodEnded(SimTime, const Pod&) {}
  // With EngineConfig::release_ended_pods: a block of pods that are all over (ended and
  // out of the scheduling queue), in PodId order, just before their records are freed.
  // Told between instants, in the order blocks come to be over.
  virtual void OnPodsReleased(std::span<const Pod>) {}
  // Preemption chose the pod as a victim: it is terminating (it ends, Preempted, after its
  // grace period).
  virtual void OnPodPreempted(SimTime, const Pod&) {}
  // The pod was killed (Pod::ending says why: preempted, a fault, a destroyed MIG device);
  // it ends now or after its grace period or toleration.
  virtual void OnPodKilled(SimTime, const Pod&) {}
  virtual void OnFault(SimTime, const FaultNotice&) {}
  // The GPUs of node pool `pool` (FaultInjector::pools) that are healthy and on a Ready,
  // uncordoned node, out of `total` (the GPUs of its provisioned nodes); told at the start of a run
  // with faults and whenever a fault changes them.
  virtual void OnPoolAvailability(SimTime, uint32_t /*pool*/, int64_t /*available*/,
                                  int64_t /*total*/) {}
  // The GPU capacity in use changed. Units: a GPU is kGpuWeight; a MIG device of g
  // compute slices on a GPU of G slices is g * kGpuWeight / G; k of a fractional GPU's
  // u units are k * kGpuWeight / u.
  virtual void OnGpuAllocation(SimTime, int64_t /*allocated*/, int64_t /*capacity*/) {}
  // The GPU capacity kept busy computing changed (same units): a running process busies
  // its device's weight x its duty cycle; the processes on a time-sliced device busy it
  // by the sum of their time shares.
  virtual void OnGpuBusy(SimTime, double /*busy*/, int64_t /*capacity*/) {}
  // The GPU use of one node changed (same units): the capacity of its devices that run a
  // process (busy > 0: a container computing part of the time, whose CUDA context holds
  // the device) and the capacity kept busy computing, as OnGpuBusy counts it, summed over
  // the node's devices. Told after each change of busy fractions on that node, and only to
  // the one observer given to Engine::SetNodeGpuUseObserver (these come twice per pod; the
  // engine spares the others the calls).
  virtual void OnNodeGpuUse(SimTime, NodeId, double /*active*/, double /*busy*/) {}
  // A node of node group `group` (ClusterSpec::node_groups) changed state.
  virtual void OnNodeScaled(SimTime, NodeId, uint32_t /*group*/, NodeScaleChange) {}
  // A Kueue workload changed state (told by the Kueue controller as it happens).
  virtual void OnKueueWorkload(SimTime, const KueueWorkloadNotice&) {}
  // Simulated time moved on: called every few thousand instants whatever happens in them,
  // so a display (the run's progress line) can show how far a run is without the engine
  // doing I/O or reading a clock. `horizon` is SimTime::Max() when the run has none.
  virtual void OnProgress(SimTime /*now*/, SimTime /*horizon*/) {}
};

// 7000 = lcm(7, 4, 1000): whole units for 7-slice (A100/H100/H200) and 4-slice (A30) MIG
// devices and for milli-GPU shares.
inline constexpr int64_t kGpuWeight = 7000;

}  // namespace migsim
