// A node's MIG changes as the MIG manager applies them (mig-parted): the device plugin
// withdrawn, the GPUs' layouts applied and the devices rebuilt, and GPU health.
#include <algorithm>
#include <utility>

#include "sim/core/check.h"
#include "sim/engine/node_runtime.h"

namespace migsim {

std::vector<int> NodeRuntime::ChangingGpus(const std::vector<GpuMigSetting>& target) const {
  std::vector<int> changing;
  for (size_t g = 0; g < gpus_.size(); ++g) {
    if (!(gpus_[g] == target[g])) changing.push_back(static_cast<int>(g));
  }
  return changing;
}

void NodeRuntime::Withdraw(const std::string& config, NodeInfo& info) {
  reconfiguring_ = true;
  mig_config_ = config;
  mig_state_ = "pending";
  info.mig_pending = true;
  ++info.generation;
  std::fill(info.allocatable.begin(), info.allocatable.end(), 0);
  RefreshShares(info);
  RefreshLabels(info);
}

std::vector<int> NodeRuntime::Apply(const std::vector<GpuMigSetting>& gpus,
                                    const std::string& config, ResourceTable& resources,
                                    NodeInfo& info) {
  std::vector<Device> old = std::move(devices_);
  const std::vector<GpuMigSetting> old_gpus = std::exchange(gpus_, gpus);
  auto same_placement = [this](const std::vector<GpuMigSetting>& before, const PluginDevice& a,
                              const PluginDevice& b) {
    if (a.gi < 0 || b.gi < 0) return a.gi == b.gi;
    return before[a.gpu].layout[a.gi] == gpus_[b.gpu].layout[b.gi];
  };
  view_ = DerivePluginView(*spec_->type->gpu, gpus_, spec_->plugin);
  BuildDevices(view_, resources);
  std::vector<int> remap(old.size(), -1);
  for (size_t o = 0; o < old.size(); ++o) {
    if (old[o].used == 0) continue;
    for (size_t n = 0; n < devices_.size(); ++n) {
      const PluginDevice& a = old[o].plugin;
      const PluginDevice& b = devices_[n].plugin;
      if (a.gpu == b.gpu && a.resource == b.resource && same_placement(old_gpus, a, b)) {
        remap[o] = static_cast<int>(n);
        devices_[n].used = old[o].used;
        devices_[n].processes = std::move(old[o].processes);
        devices_[n].time_share = std::move(old[o].time_share);
        devices_[n].process_memory_mib = old[o].process_memory_mib;
        devices_[n].busy = old[o].busy;
        devices_[n].tick = old[o].tick;
        break;
      }
    }
  }
  allocated_weight_ = 0;
  busy_weight_ = 0;
  active_weight_ = 0;
  for (const Device& d : devices_) {
    allocated_weight_ += Weighted(d);
    busy_weight_ += d.busy * static_cast<double>(d.weight);
    if (d.busy > 0) active_weight_ += static_cast<double>(d.weight);
  }
  reconfiguring_ = false;
  mig_config_ = config;
  mig_state_ = "success";
  RefreshInfo(resources, info);
  return remap;
}

void NodeRuntime::SetGpuHealthy(int gpu, bool healthy, const ResourceTable& resources,
                                NodeInfo& info) {
  if (unhealthy_.empty()) unhealthy_.assign(gpus_.size(), 0);
  unhealthy_[gpu] = healthy ? 0 : 1;
  if (dra_) dra_->SetGpuHealthy(gpu, healthy);
  for (Device& d : devices_) {
    if (d.plugin.gpu != gpu) continue;
    d.healthy = healthy;
    d.limit = healthy ? d.plugin.replicas : 0;
  }
  RefreshInfo(resources, info);
}

void NodeRuntime::SetMigState(const std::string& state, NodeInfo& info) {
  mig_state_ = state;
  ++info.generation;
  RefreshLabels(info);
}

}  // namespace migsim
