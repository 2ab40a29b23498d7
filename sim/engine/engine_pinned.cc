// Pods with a nodeName: bound to their node without the scheduler, as the kubelet admits
// a pod whose spec.nodeName is set (docs/scheduling.md §1: kube-scheduler only sees pods
// without one). A cluster snapshot's bound pods (`migsim import`) start this way.

#include "sim/engine/engine.h"

namespace migsim {

// Before the scheduler's cycle, so that at time 0 a snapshot's running pods are on their
// nodes before its pending pods are offered to the policy, whatever their priorities.
void Engine::BindPinned() {
  std::vector<PodId> pinned;
  pinned.swap(pinned_);
  for (PodId id : pinned) {
    Pod& pod = pods_[id.value()];
    if (pod.phase == PodPhase::kPending && !pod.holds_node()) TryBindPinned(pod);
  }
}

// The kubelet would reject a pod that does not fit (OutOfcpu, OutOf<resource>) and its
// controller would create another at once: a loop within one instant. Such a pod waits in
// the queue instead (back-off, then the next cluster event) until its node has room. No
// policy, no post-filter, no preemption: nothing may be evicted or repartitioned for it.
bool Engine::TryBindPinned(Pod& pod) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  const NodeInfo& info = node_info_[t.node_name.value()];
  if (!info.schedulable || !info.HasRoomFor(t.requests)) return false;
  Bind(pod, t.node_name, {});
  return true;
}

}  // namespace migsim
