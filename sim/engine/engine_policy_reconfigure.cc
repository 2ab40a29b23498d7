// MIG repartitions that a policy asks for (Policy::PostFilter): validated, then applied
// through the MIG manager's relabel path with the node's pending window.

#include <algorithm>

#include "sim/core/check.h"
#include "sim/core/text.h"
#include "sim/engine/engine.h"

namespace migsim {
namespace {

// The nvidia.com/mig.config value of a node whose layouts a policy chose: in a real
// cluster, a per-node mig-parted config written by the controller that asked.
constexpr const char* kCustomConfig = "custom";

bool HasPlacement(const MigLayout& layout, const MigPlacement& p) {
  return std::find(layout.begin(), layout.end(), p) != layout.end();
}

}  // namespace

void Engine::Reconfigure(const std::vector<MigReconfiguration>& changes) {
  for (const MigReconfiguration& change : changes) {
    ++policy_decisions_;
    if (!Valid(change)) {
      if (rejected_decisions_++ == 0) {
        first_rejection_ = "at " + FormatShortest(now_.seconds()) + " s, a MIG repartition of " +
                           (change.node.valid() && change.node.value() < node_info_.size()
                                ? "node '" + node_info_[change.node.value()].name + "'"
                                : "a node that does not exist") +
                           ": a node being reconfigured or under DRA, a GPU named twice or "
                           "without MIG, a layout NVIDIA does not allow, or busy instances lost";
      }
      continue;
    }
    const uint32_t node = change.node.value();
    std::vector<GpuMigSetting> target = runtimes_[node].gpus();
    for (const GpuLayoutChange& g : change.gpus) target[g.gpu].layout = g.layout;
    runtimes_[node].Withdraw(kCustomConfig, node_info_[node]);
    NodeChanged(node);
    ++mig_windows_;
    const auto index = static_cast<uint32_t>(policy_changes_.size());
    policy_changes_.push_back(std::move(target));
    reconfiguring_until_[node] = now_ + cluster_->nodes[node].mig_reconfiguration;
    events_.Push(reconfiguring_until_[node], PolicyReconfigureEnd{change.node, index});
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

void Engine::Handle(const PolicyReconfigureEnd& e) {
  std::vector<GpuMigSetting> target = std::move(policy_changes_[e.index]);
  FinishReconfigure(e.node.value(), target, kCustomConfig);
}

}  // namespace migsim
