// NodeRuntime on a node whose GPUs are under DRA: its devices mirror the ResourceSlice
// one for one (device i of the runtime is device i of the slice), so that everything the
// engine does with a pod's devices — run time by device kind, GPU weight, busy time, names
// — works unchanged; what is free is the allocator's to say (counters, placements).

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/node_runtime.h"
#include "sim/engine/observer.h"

namespace migsim {

void NodeRuntime::BuildDraDevices() {
  const GpuModel& model = *spec_->type->gpu;
  const bool dynamic = spec_->dra->dynamic_mig && model.mig_capable();
  // DynamicMIG: MIG mode is on and the GPUs start without instances.
  if (dynamic) gpus_.assign(gpus_.size(), GpuMigSetting{.mig_enabled = true, .layout = {}});
  dra_ = std::make_unique<dra::Allocator>(model, dra::BuildResourceSlice(model, gpus_, dynamic));
  const int units = std::max(model.compute_slices, 1);
  for (const dra::Device& d : dra_->slice().devices) {
    Device dev;
    dev.plugin.gpu = d.gpu;
    dev.plugin.resource = d.name;
    dev.plugin.compute_slices = d.mig ? model.profiles[d.mig->profile].compute_slices : units;
    dev.plugin.memory_mib = static_cast<int>(d.capacity.at("memory").value >> 20);
    dev.kind = d.mig ? model.profiles[d.mig->profile].name : "gpu";
    dev.weight = dev.plugin.compute_slices * kGpuWeight / units;
    dev.limit = 1;
    devices_.push_back(std::move(dev));
  }
}

std::optional<MigPlacement> NodeRuntime::DevicePlacement(uint32_t device) const {
  if (dra_) return dra_->slice().devices[device].mig;
  const PluginDevice& d = devices_[device].plugin;
  if (d.gi < 0) return std::nullopt;
  return gpus_[d.gpu].layout[d.gi];
}

NodeRuntime::ClaimResult NodeRuntime::AllocateClaims(std::span<const dra::ResourceClaim> claims,
                                                     std::span<const dra::DeviceClass> classes,
                                                     std::vector<Held>& out, NodeInfo& info) {
  MIGSIM_CHECK(dra_ != nullptr, "claims allocated on a node without DRA");
  const std::optional<dra::PodAllocation> found = dra_->Find(claims, classes);
  MIGSIM_CHECK(found.has_value(), "AllocateClaims called for claims that do not fit");
  dra_->Commit(*found);
  ClaimResult result;
  const size_t first = out.size();
  for (const dra::RequestAllocation& request : found->requests) {
    for (uint32_t d : request.devices) {
      result.weight += Occupy(devices_[d], 1);
      out.push_back({d, 1});
      result.claims.push_back(request.claim);
      if (dra_->slice().devices[d].created_on_allocation) ++result.created;
    }
  }
  ++info.generation;
  if (result.created > 0) {
    for (size_t g = 0; g < gpus_.size(); ++g) gpus_[g].layout = dra_->Layout(static_cast<int>(g));
    info.gpus = gpus_;
  }
  SyncUsed(std::span<const Held>(out).subspan(first), info);
  return result;
}

// The instances the pod's allocation created are destroyed with it (DynamicMIG). A device
// it holds with no tenant is a shared claim's: the claim releases it (ReleaseSharedClaim).
void NodeRuntime::ReleaseClaims(std::span<const Held> held, NodeInfo& info) {
  dra::PodAllocation allocation;
  allocation.requests.push_back({});
  bool destroyed = false;
  for (const Held& h : held) {
    if (h.count == 0) continue;
    allocation.requests.back().devices.push_back(h.device);
    destroyed = destroyed || dra_->slice().devices[h.device].created_on_allocation;
  }
  dra_->Release(allocation);
  if (!destroyed) return;
  for (size_t g = 0; g < gpus_.size(); ++g) gpus_[g].layout = dra_->Layout(static_cast<int>(g));
  info.gpus = gpus_;
}

void NodeRuntime::ShareClaimDevices(std::span<const Held> devices,
                                    const dra::DeviceSharing& sharing, NodeInfo& info) {
  for (const Held& h : devices) {
    devices_[h.device].plugin.shared = true;
    devices_[h.device].sharing = &sharing;
    info.devices[h.device].shared = true;
  }
  ++info.generation;
}

int64_t NodeRuntime::ReleaseSharedClaim(std::span<const Held> devices, NodeInfo& info) {
  for (const Held& h : devices) {
    MIGSIM_CHECK(devices_[h.device].processes.empty(), "a shared claim released in use");
    devices_[h.device].plugin.shared = false;
    devices_[h.device].sharing = nullptr;
    info.devices[h.device].shared = false;
  }
  return ReleaseDevices(devices, info);  // a claim, not a pod: no CPU or memory booked
}

}  // namespace migsim
