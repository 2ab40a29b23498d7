#include "sim/dra/resource_slice.h"

#include <cmath>

namespace migsim::dra {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

Device WholeGpu(const GpuModel& model, int gpu) {
  Device d;
  d.name = "gpu-" + std::to_string(gpu);
  d.gpu = gpu;
  d.attributes = {{"type", std::string("gpu")},
                  {"productName", model.name},
                  {"architecture", ArchitectureOf(model)},
                  {"index", int64_t{gpu}}};
  d.capacity = {{"memory", Quantity{model.memory_mib * kMiB}},
                {"multiprocessors", Quantity{model.sms}}};
  return d;
}

Device MigDevice(const GpuModel& model, int gpu, const MigPlacement& placement) {
  const MigProfile& profile = model.profiles[placement.profile];
  Device d;
  d.name =
      "gpu-" + std::to_string(gpu) + "-mig-" + profile.name + "-" + std::to_string(placement.start);
  d.gpu = gpu;
  d.mig = placement;
  d.attributes = {{"type", std::string("mig")},
                  {"productName", model.name},
                  {"architecture", ArchitectureOf(model)},
                  {"parentIndex", int64_t{gpu}},
                  {"profile", profile.name},
                  {"placementStart", int64_t{placement.start}}};
  // nvidia-smi's figure in MiB (4.75 GiB for a 1g.5gb = 4864 MiB).
  const int64_t memory_mib = std::llround(profile.memory_gib * 1024);
  d.capacity = {{"memory", Quantity{memory_mib * kMiB}},
                {"multiprocessors", Quantity{profile.sms}}};
  return d;
}

// Counters of one GPU: memory slices 0..n-1, then compute slices, then media extensions.
void AddCounters(const GpuModel& model, int gpu, ResourceSlice& slice) {
  const std::string prefix = "gpu-" + std::to_string(gpu) + "-";
  for (int s = 0; s < model.memory_slices; ++s) {
    slice.counters.push_back({prefix + "memory-slice-" + std::to_string(s), gpu, 1});
  }
  slice.counters.push_back({prefix + "compute-slices", gpu, model.compute_slices});
  slice.counters.push_back({prefix + "media-extensions", gpu, 1});
}

void AddDynamicGpu(const GpuModel& model, int gpu, ResourceSlice& slice) {
  const uint32_t base = static_cast<uint32_t>(slice.counters.size());
  AddCounters(model, gpu, slice);
  const uint32_t compute = base + static_cast<uint32_t>(model.memory_slices);
  Device whole = WholeGpu(model, gpu);
  for (uint32_t c = base; c < slice.counters.size(); ++c) {
    whole.consumes.push_back({c, slice.counters[c].capacity});
  }
  slice.devices.push_back(std::move(whole));
  for (size_t p = 0; p < model.profiles.size(); ++p) {
    const MigProfile& profile = model.profiles[p];
    for (int start : profile.starts) {
      Device d = MigDevice(model, gpu, {static_cast<int>(p), start});
      d.created_on_allocation = true;
      for (int s = start; s < start + profile.memory_slices; ++s) {
        d.consumes.push_back({base + static_cast<uint32_t>(s), 1});
      }
      d.consumes.push_back({compute, profile.compute_slices});
      if (profile.media_extensions) d.consumes.push_back({compute + 1, 1});
      slice.devices.push_back(std::move(d));
    }
  }
}

}  // namespace

ResourceSlice BuildResourceSlice(const GpuModel& model, std::span<const GpuMigSetting> gpus,
                                 bool dynamic_mig) {
  ResourceSlice slice;
  for (size_t g = 0; g < gpus.size(); ++g) {
    const int gpu = static_cast<int>(g);
    if (dynamic_mig && model.mig_capable()) {
      AddDynamicGpu(model, gpu, slice);
    } else if (gpus[g].mig_enabled) {
      for (const MigPlacement& placement : gpus[g].layout) {
        slice.devices.push_back(MigDevice(model, gpu, placement));
      }
    } else {
      slice.devices.push_back(WholeGpu(model, gpu));
    }
  }
  return slice;
}

std::string ArchitectureOf(const GpuModel& model) {
  const std::string& n = model.name;
  if (n.starts_with("A100") || n.starts_with("A30") || n.starts_with("A10")) return "Ampere";
  if (n.starts_with("H100") || n.starts_with("H200")) return "Hopper";
  if (n.starts_with("V100")) return "Volta";
  if (n.starts_with("T4")) return "Turing";
  return "";
}

}  // namespace migsim::dra
