// The scheduling cycle and binding: the part of the engine between the policy's
// answer and the node's devices.

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

void Engine::ScheduleCycle() {
  if (!queue_.HasWork()) return;
  queue_.BeginCycle();
  while (std::optional<PodId> front = queue_.Front()) {
    Pod& pod = pods_[front->value()];
    if (pod.phase != PodPhase::kPending) {
      queue_.Drop();
    } else if (TryBind(pod)) {
      queue_.Accept();
    } else {
      queue_.Reject();
    }
  }
}

bool Engine::TryBind(Pod& pod) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  const PodView view{pod.id, &t.requests, &t.node_selector, &t.node_affinity};
  const ClusterView cluster(node_info_, resources_, now_);
  std::optional<Placement> placement = policy_->Place(cluster, view);
  if (!placement) return false;
  // The policy's answer is checked, never trusted: a bad answer leaves the pod pending.
  const NodeId node = placement->node;
  if (!node.valid() || node.value() >= node_info_.size() ||
      !cluster.Fits(view, node_info_[node.value()]) ||
      (!placement->shares.empty() &&
       !runtimes_[node.value()].ValidShares(t.requests, placement->shares))) {
    ++rejected_decisions_;
    return false;
  }
  Bind(pod, node, placement->shares);
  return true;
}

void Engine::Bind(Pod& pod, NodeId node, std::span<const uint32_t> shares) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  NodeRuntime& runtime = runtimes_[node.value()];
  pod.node = node;
  pod.bound = now_;
  pod.phase = PodPhase::kStarting;
  pod.device_begin = static_cast<uint32_t>(allocation_pool_.size());
  allocated_weight_ +=
      runtime.Allocate(t.requests, allocation_pool_, node_info_[node.value()], shares);
  pod.device_count = static_cast<uint32_t>(allocation_pool_.size() - pod.device_begin);
  for (const NodeRuntime::Held& held : DevicesOf(pod)) {
    const NodeRuntime::Device& dev = runtime.devices()[held.device];
    DeviceDesc desc{static_cast<int16_t>(dev.plugin.gpu), -1, 0, dev.plugin.shared, held.count,
                    dev.plugin.fractional ? dev.plugin.replicas : 0};
    if (dev.plugin.gi >= 0) {
      const MigPlacement& gi = runtime.gpus()[dev.plugin.gpu].layout[dev.plugin.gi];
      desc.profile = static_cast<int16_t>(gi.profile);
      desc.start = static_cast<int16_t>(gi.start);
    }
    allocation_desc_.push_back(desc);
  }
  for (EngineObserver* o : observers_) o->OnPodBound(now_, pod);
  NotifyAllocation();
  if (runtime.AdmissionRejects(t.requests)) {
    events_.Push(now_, PodEnd{pod.id, pod.generation, EndReason::kAdmissionError});
    return;
  }
  SimTime startup =
      t.job_class.valid() ? job_classes_[t.job_class.value()].startup : SimTime::Zero();
  events_.Push(now_ + startup, PodStart{pod.id, pod.generation});
}

}  // namespace migsim
