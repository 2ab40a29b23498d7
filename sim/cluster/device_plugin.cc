#include "sim/cluster/device_plugin.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace migsim {
namespace {

using Labels = std::map<std::string, std::string>;

const std::string kGpuResource = "nvidia.com/gpu";
const std::string kMigResourcePrefix = "nvidia.com/mig-";

int MigMemoryMib(const MigProfile& profile) {
  return static_cast<int>(std::lround(profile.memory_gib * 1024));
}

PluginDevice WholeGpuDevice(const GpuModel& model, int gpu) {
  return PluginDevice{.gpu = gpu,
                      .gi = -1,
                      .resource = kGpuResource,
                      .replicas = 1,
                      .shared = false,
                      .compute_slices = std::max(model.compute_slices, 1),
                      .memory_mib = model.memory_mib};
}

// Under single every GI is an nvidia.com/gpu; under mixed it is nvidia.com/mig-<profile>.
void AppendMigDevices(const GpuModel& model, int gpu, const MigLayout& layout, bool single,
                      std::vector<PluginDevice>* devices) {
  std::vector<int> by_start(layout.size());
  std::iota(by_start.begin(), by_start.end(), 0);
  std::sort(by_start.begin(), by_start.end(),
            [&layout](int a, int b) { return layout[a].start < layout[b].start; });
  for (int gi : by_start) {
    const MigProfile& profile = model.profiles[layout[gi].profile];
    devices->push_back(PluginDevice{
        .gpu = gpu,
        .gi = gi,
        .resource = single ? kGpuResource : kMigResourcePrefix + profile.ResourceSuffix(),
        .replicas = 1,
        .shared = false,
        .compute_slices = profile.compute_slices,
        .memory_mib = MigMemoryMib(profile)});
  }
}

// With strategy none the plugin ignores MIG and hands out whole GPUs, MIG-enabled or not.
std::vector<PluginDevice> PhysicalDevices(const GpuModel& model,
                                          std::span<const GpuMigSetting> gpus,
                                          MigStrategy strategy) {
  std::vector<PluginDevice> devices;
  for (size_t i = 0; i < gpus.size(); ++i) {
    const int gpu = static_cast<int>(i);
    if (strategy == MigStrategy::kNone || !gpus[i].mig_enabled) {
      devices.push_back(WholeGpuDevice(model, gpu));
    } else {
      AppendMigDevices(model, gpu, gpus[i].layout, strategy == MigStrategy::kSingle, &devices);
    }
  }
  return devices;
}

bool AnyMigEnabled(std::span<const GpuMigSetting> gpus) {
  return std::any_of(gpus.begin(), gpus.end(),
                     [](const GpuMigSetting& gpu) { return gpu.mig_enabled; });
}

// Empty when the single strategy accepts the node, else the plugin's complaint. A node with
// no MIG-enabled GPU is accepted: the plugin then serves whole GPUs, as under none (its
// device map only fails when full GPUs and MIG devices are both present).
std::string SingleStrategyError(std::span<const GpuMigSetting> gpus) {
  if (!AnyMigEnabled(gpus)) return "";
  std::set<int> profiles;
  for (size_t i = 0; i < gpus.size(); ++i) {
    if (!gpus[i].mig_enabled) {
      return "all devices on the node must be configured with the same migEnabled value";
    }
    if (gpus[i].layout.empty()) {
      return "GPU " + std::to_string(i) + " has MIG enabled but no MIG devices";
    }
    for (const MigPlacement& placement : gpus[i].layout) profiles.insert(placement.profile);
  }
  if (profiles.size() > 1) return "more than one MIG device type present on node";
  return "";
}

const SharedResource* FindShared(const DevicePluginConfig& config, const std::string& resource) {
  if (config.sharing == SharingMode::kNone || config.sharing == SharingMode::kFractional) {
    return nullptr;
  }
  for (const SharedResource& shared : config.shared) {
    if (shared.name == resource) return &shared;
  }
  return nullptr;
}

// Fractional shares replace each whole GPU's nvidia.com/gpu by `units` of the share
// resource; MIG devices are left alone (the loader keeps MIG off on such nodes).
void ApplyFractional(const DevicePluginConfig& config, std::vector<PluginDevice>* devices) {
  for (PluginDevice& device : *devices) {
    if (device.gi >= 0) continue;
    device.resource = config.shared.at(0).name;
    device.replicas = std::max(config.shared.at(0).replicas, 1);
    device.shared = true;
    device.fractional = true;
  }
}

// Time-slicing shares any listed resource; MPS only whole GPUs (the plugin refuses MPS on
// MIG devices, domain.md §3.4, which the scenario loader rejects up front).
void ApplySharing(const DevicePluginConfig& config, std::vector<PluginDevice>* devices) {
  if (config.sharing == SharingMode::kFractional) {
    ApplyFractional(config, devices);
    return;
  }
  for (PluginDevice& device : *devices) {
    const SharedResource* shared = FindShared(config, device.resource);
    if (shared == nullptr) continue;
    if (config.sharing == SharingMode::kMps && device.gi >= 0) continue;
    device.replicas = std::max(shared->replicas, 1);
    device.shared = true;
    device.mps = config.sharing == SharingMode::kMps;
    if (config.rename_by_default) device.resource += ".shared";
  }
}

std::map<std::string, int> Advertise(const std::vector<PluginDevice>& devices) {
  std::map<std::string, int> advertised = {{kGpuResource, 0}};
  for (const PluginDevice& device : devices) advertised[device.resource] += device.replicas;
  return advertised;
}

// GFD's labels for one resource; `resource` doubles as the label prefix
// ("nvidia.com/gpu" -> "nvidia.com/gpu.count", "nvidia.com/mig-1g.5gb" -> "...1g.5gb.count").
void AddResourceLabels(const std::string& resource, std::string product, int count, int memory_mib,
                       const DevicePluginConfig& config, Labels* labels) {
  const SharedResource* shared = FindShared(config, resource);
  if (shared != nullptr && !config.rename_by_default) product += "-SHARED";
  (*labels)[resource + ".product"] = std::move(product);
  (*labels)[resource + ".count"] = std::to_string(count);
  (*labels)[resource + ".memory"] = std::to_string(memory_mib);
  (*labels)[resource + ".replicas"] = std::to_string(shared ? std::max(shared->replicas, 1) : 1);
  const char* strategy = config.sharing == SharingMode::kMps ? "mps" : "time-slicing";
  (*labels)[resource + ".sharing-strategy"] = shared ? strategy : "none";
}

void AddMigProfileLabels(const std::string& resource, const MigProfile& profile, Labels* labels) {
  (*labels)[resource + ".multiprocessors"] = std::to_string(profile.sms);
  (*labels)[resource + ".slices.gi"] = std::to_string(profile.compute_slices);
  (*labels)[resource + ".slices.ci"] = std::to_string(profile.compute_slices);
}

void AddMigLabels(const GpuModel& model, const DevicePluginConfig& config, Labels* labels) {
  (*labels)["nvidia.com/mig.capable"] = model.mig_capable() ? "true" : "false";
  (*labels)["nvidia.com/mps.capable"] = config.sharing == SharingMode::kMps ? "true" : "false";
  if (!model.mig_capable() || config.strategy == MigStrategy::kNone) return;
  (*labels)["nvidia.com/mig.strategy"] =
      config.strategy == MigStrategy::kSingle ? "single" : "mixed";
}

// Under single with MIG on, the gpu.* labels describe the (uniform) MIG devices.
void AddGpuLabels(const GpuModel& model, std::span<const GpuMigSetting> gpus,
                  const DevicePluginConfig& config, Labels* labels) {
  if (config.strategy != MigStrategy::kSingle || !AnyMigEnabled(gpus)) {
    AddResourceLabels(kGpuResource, model.product_label, static_cast<int>(gpus.size()),
                      model.memory_mib, config, labels);
    return;
  }
  const MigProfile& profile = model.profiles[gpus[0].layout[0].profile];
  int count = 0;
  for (const GpuMigSetting& gpu : gpus) count += static_cast<int>(gpu.layout.size());
  AddResourceLabels(kGpuResource, model.product_label + "-MIG-" + profile.ResourceSuffix(), count,
                    MigMemoryMib(profile), config, labels);
  AddMigProfileLabels(kGpuResource, profile, labels);
}

void AddMixedLabels(const GpuModel& model, std::span<const GpuMigSetting> gpus,
                    const DevicePluginConfig& config, Labels* labels) {
  std::vector<int> counts(model.profiles.size(), 0);
  for (const GpuMigSetting& gpu : gpus) {
    if (!gpu.mig_enabled) continue;
    for (const MigPlacement& placement : gpu.layout) ++counts[placement.profile];
  }
  for (size_t p = 0; p < counts.size(); ++p) {
    if (counts[p] == 0) continue;
    const MigProfile& profile = model.profiles[p];
    const std::string resource = kMigResourcePrefix + profile.ResourceSuffix();
    AddResourceLabels(resource, model.product_label + "-MIG-" + profile.ResourceSuffix(), counts[p],
                      MigMemoryMib(profile), config, labels);
    AddMigProfileLabels(resource, profile, labels);
  }
}

// What GFD publishes when the single strategy is violated: nothing is allocatable.
PluginView UnhealthyView(const GpuModel& model, std::string error, PluginView view) {
  view.healthy = false;
  view.error = std::move(error);
  view.advertised = {{kGpuResource, 0}};
  view.labels["nvidia.com/gpu.product"] = model.product_label + "-MIG-INVALID";
  view.labels["nvidia.com/gpu.count"] = "0";
  view.labels["nvidia.com/gpu.memory"] = "0";
  view.labels["nvidia.com/gpu.replicas"] = "0";
  return view;
}

}  // namespace

int MaxMpsClients(const GpuModel& model) {
  // The plugin allows 48 clients, 16 below compute capability 7.5; of the catalog's
  // models only the V100s (7.0) are below.
  return model.name.starts_with("V100") ? 16 : 48;
}

PluginView DerivePluginView(const GpuModel& model, std::span<const GpuMigSetting> gpus,
                            const DevicePluginConfig& config) {
  PluginView view;
  if (gpus.empty()) return view;
  AddMigLabels(model, config, &view.labels);
  if (config.strategy == MigStrategy::kSingle) {
    std::string error = SingleStrategyError(gpus);
    if (!error.empty()) return UnhealthyView(model, std::move(error), std::move(view));
  }
  view.devices = PhysicalDevices(model, gpus, config.strategy);
  ApplySharing(config, &view.devices);
  view.advertised = Advertise(view.devices);
  AddGpuLabels(model, gpus, config, &view.labels);
  if (config.strategy == MigStrategy::kMixed) AddMixedLabels(model, gpus, config, &view.labels);
  return view;
}

}  // namespace migsim
