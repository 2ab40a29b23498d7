// The mechanism of a MIG change (what mig-parted does once the MIG manager asks): a node's
// devices withdrawn, then rebuilt to a new layout. When a change begins and ends is the
// MIG manager's (a cluster controller) or a fault's; which layouts a policy may ask
// for is checked here, as every decision of a policy is.
#include <algorithm>

#include "sim/core/check.h"
#include "sim/core/text.h"
#include "sim/engine/engine.h"

namespace migsim {
namespace {

bool HasPlacement(const MigLayout& layout, const MigPlacement& p) {
  return std::find(layout.begin(), layout.end(), p) != layout.end();
}

}  // namespace

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
  ++counters_.mig_windows;
  reconfiguring_until_[node] = now_ + duration;
}

void Engine::FinishMigChange(uint32_t node, const std::vector<GpuMigSetting>& gpus,
                               const std::string& config) {
  NodeRuntime& runtime = runtimes_[node];
  std::vector<int> remap = runtime.Apply(gpus, config, resources_, node_info_[node]);
  NodeChanged(node);
  NotifyNodeGpuUse(node);
  UpdateMigFragmentation(node);
  for (size_t i = 0; i < pods_.size(); ++i) {
    if (pods_.released(i)) continue;
    Pod& pod = pods_[i];
    if (!pod.holds_node() || pod.node.value() != node) continue;
    for (uint32_t k = pod.device_begin; k < pod.device_begin + pod.device_count; ++k) {
      uint32_t& device = device_records_.held[k].device;
      MIGSIM_CHECK(remap[device] >= 0, "a surviving pod lost its device");
      device = static_cast<uint32_t>(remap[device]);
    }
  }
  allocated_weight_ = 0;
  for (const NodeRuntime& n : runtimes_) allocated_weight_ += n.allocated_weight();
  queue_.UnblockAll();
  NotifyAllocation();
}

void Engine::RequestMigLayouts(const std::vector<MigReconfiguration>& changes) {
  for (const MigReconfiguration& change : changes) {
    const bool valid = Valid(change);
    decisions_.Count(valid, [&] {
      return "at " + FormatShortest(now_.seconds()) + " s, a MIG repartition of " +
             (change.node.valid() && change.node.value() < node_info_.size()
                  ? "node '" + node_info_[change.node.value()].name + "'"
                  : "a node that does not exist") +
             ": a node being reconfigured or under DRA, a GPU named twice or "
             "without MIG, a layout NVIDIA does not allow, or busy instances lost";
    });
    if (!valid) continue;
    std::vector<GpuMigSetting> target = runtimes_[change.node.value()].gpus();
    for (const GpuLayoutChange& g : change.gpus) target[g.gpu].layout = g.layout;
    const auto [mig_manager, api] = RoleOf(&ClusterController::mig_layouts);
    MIGSIM_CHECK(mig_manager != nullptr, "a policy's MIG layout with no MIG manager to apply it");
    mig_manager->RequestLayout(*api, change.node, std::move(target));
  }
}

// See MigReconfiguration. The target must also leave the device plugin healthy: a layout
// the plugin refuses (mixed profiles under the single strategy) would take busy devices away.
bool Engine::Valid(const MigReconfiguration& change) const {
  const NodeId node = change.node;
  if (!node.valid() || node.value() >= runtimes_.size() || change.gpus.empty()) return false;
  const NodeRuntime& runtime = runtimes_[node.value()];
  const NodeInfo& info = node_info_[node.value()];
  // A DRA node has no MIG manager: DynamicMIG creates instances itself.
  if (runtime.reconfiguring() || info.gpu_model == nullptr || runtime.dra()) return false;
  std::vector<GpuMigSetting> target = runtime.gpus();
  for (size_t i = 0; i < change.gpus.size(); ++i) {
    const GpuLayoutChange& g = change.gpus[i];
    if (g.gpu < 0 || static_cast<size_t>(g.gpu) >= target.size()) return false;
    for (size_t j = 0; j < i; ++j) {
      if (change.gpus[j].gpu == g.gpu) return false;
    }
    if (!target[g.gpu].mig_enabled || !ValidateLayout(*info.gpu_model, g.layout).ok()) {
      return false;
    }
    target[g.gpu].layout = g.layout;
  }
  for (const DeviceInfo& d : info.devices) {
    if (d.used > 0 && d.mig && !HasPlacement(target[d.gpu].layout, *d.mig)) return false;
  }
  return DerivePluginView(*info.gpu_model, target, runtime.spec().plugin).healthy;
}

void Engine::BeginMigRepartition(uint32_t node, const std::string& config, SimTime until) {
  MIGSIM_CHECK(!runtimes_[node].reconfiguring() && until >= now_,
               "a MIG repartition of a node being reconfigured, or ending in the past");
  runtimes_[node].Withdraw(config, node_info_[node]);
  NodeChanged(node);
  ++counters_.mig_windows;
  reconfiguring_until_[node] = until;
}

}  // namespace migsim
