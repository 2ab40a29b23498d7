// MIG relabelling of a node during a run (see Reconfiguration in cluster_spec.h).
#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

void Engine::Handle(const ReconfigureBegin& e) {
  const Reconfiguration& r = cluster_->reconfigurations[e.index];
  NodeRuntime& runtime = runtimes_[r.node];
  if (runtime.reconfiguring()) {
    // Another change of this node is under way (a policy's, or a relabel held back by one):
    // go after it. A relabel that ends at this same instant (the loader rejects overlapping
    // windows) but whose end event was queued later is waited for the same way.
    events_.Push(std::max(now_, reconfiguring_until_[r.node]), e);
    return;
  }
  if (runtime.ChangingGpus(r.gpus).empty()) {
    // The config is already in place: the MIG manager reports success at once.
    events_.Push(now_, ReconfigureEnd{e.index});
    return;
  }
  BeginMigChange(r.node, r.gpus, r.mig_config, r.duration, LossBook::kUnbooked);
  events_.Push(now_ + r.duration, ReconfigureEnd{e.index});
}

void Engine::BeginMigChange(uint32_t node, const std::vector<GpuMigSetting>& target,
                            const std::string& config, SimTime duration, LossBook book) {
  NodeRuntime& runtime = runtimes_[node];
  const std::vector<int> changing = runtime.ChangingGpus(target);
  ReleaseReservationsOn(NodeId(node));
  // mig-parted destroys every GI of a GPU it rebuilds: pods on those GPUs lose their
  // device. Collect first, end after: ending a pod can make its controller submit more.
  std::vector<PodId> victims;
  for (const Pod& pod : pods_) {
    if (!pod.on_node() || pod.node.value() != node) continue;
    for (const NodeRuntime::Held& held : DevicesOf(pod)) {
      int gpu = runtime.devices()[held.device].plugin.gpu;
      if (std::find(changing.begin(), changing.end(), gpu) != changing.end()) {
        victims.push_back(pod.id);
        break;
      }
    }
  }
  for (PodId id : victims) {
    Pod& pod = pods_[id.value()];
    if (!pod.on_node()) continue;
    // A pod being terminated already ends now, for what it was killed for.
    if (pod.terminating) {
      EndPod(pod, PodPhase::kFailed, pod.ending);
      continue;
    }
    Terminate(pod, now_, EndReason::kDeviceLost, book);
    EndPod(pod, PodPhase::kFailed, EndReason::kDeviceLost);  // at once, not at the end of now_
  }
  runtime.Withdraw(config, node_info_[node]);
  NodeChanged(node);
  ++mig_windows_;
  reconfiguring_until_[node] = now_ + duration;
}

void Engine::Handle(const ReconfigureEnd& e) {
  const Reconfiguration& r = cluster_->reconfigurations[e.index];
  FinishReconfigure(r.node, r.gpus, r.mig_config);
}

void Engine::FinishReconfigure(uint32_t node, const std::vector<GpuMigSetting>& gpus,
                               const std::string& config) {
  NodeRuntime& runtime = runtimes_[node];
  std::vector<int> remap = runtime.Apply(gpus, config, resources_, node_info_[node]);
  NodeChanged(node);
  UpdateMigFragmentation(node);
  for (Pod& pod : pods_) {
    if (!pod.holds_node() || pod.node.value() != node) continue;
    for (uint32_t k = pod.device_begin; k < pod.device_begin + pod.device_count; ++k) {
      uint32_t& device = allocation_pool_[k].device;
      MIGSIM_CHECK(remap[device] >= 0, "a surviving pod lost its device");
      device = static_cast<uint32_t>(remap[device]);
    }
  }
  allocated_weight_ = 0;
  for (const NodeRuntime& n : runtimes_) allocated_weight_ += n.allocated_weight();
  queue_.UnblockAll();
  NotifyAllocation();
}

}  // namespace migsim
