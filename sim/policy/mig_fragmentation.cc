#include "sim/policy/mig_fragmentation.h"

#include <algorithm>

namespace migsim {
namespace {

struct GpuSlices {
  int32_t free = 0;
  int32_t largest = 0;
};

bool DynamicDra(const NodeInfo& node) {
  if (node.dra == nullptr) return false;
  const auto& devices = node.dra->slice().devices;
  return std::any_of(devices.begin(), devices.end(),
                     [](const dra::Device& d) { return d.created_on_allocation; });
}

// The biggest classic profile that can still be created next to `layout`.
int32_t LargestPlaceable(const GpuModel& model, const MigLayout& layout) {
  int32_t largest = 0;
  MigLayout candidate = layout;
  for (const MigProfile& profile : model.profiles) {
    if (!profile.classic || profile.compute_slices <= largest) continue;
    const int p = static_cast<int>(&profile - model.profiles.data());
    for (int start : profile.starts) {
      candidate.push_back({p, start});
      const bool fits = ValidateLayout(model, candidate).ok();
      candidate.pop_back();
      if (fits) {
        largest = profile.compute_slices;
        break;
      }
    }
  }
  return largest;
}

GpuSlices DynamicGpu(const NodeInfo& node, int gpu) {
  const GpuModel& model = *node.gpu_model;
  // The whole GPU device comes first among the GPU's devices (resource_slice.h).
  for (uint32_t d = 0; d < node.dra->slice().devices.size(); ++d) {
    const dra::Device& device = node.dra->slice().devices[d];
    if (device.gpu == gpu && !device.mig && node.dra->allocated(d)) return {};
  }
  const MigLayout& layout = node.gpus[gpu].layout;
  int32_t used = 0;
  for (const MigPlacement& gi : layout) used += model.profiles[gi.profile].compute_slices;
  return {model.compute_slices - used, LargestPlaceable(model, layout)};
}

}  // namespace

MigSlices StrandedMigSlices(const NodeInfo& node) {
  MigSlices out;
  if (node.gpu_model == nullptr || !node.gpu_model->mig_capable()) return out;
  const GpuModel& model = *node.gpu_model;
  const bool dynamic = DynamicDra(node);
  std::vector<GpuSlices> gpus(node.gpus.size());
  for (size_t g = 0; g < node.gpus.size(); ++g) {
    if (!node.gpus[g].mig_enabled) continue;
    out.total += model.compute_slices;
    if (dynamic) gpus[g] = DynamicGpu(node, static_cast<int>(g));
  }
  if (!dynamic) {
    for (const DeviceInfo& d : node.devices) {
      if (!d.mig || d.used > 0 || !node.gpus[d.gpu].mig_enabled) continue;
      const int32_t slices = model.profiles[d.mig->profile].compute_slices;
      gpus[d.gpu].free += slices;
      gpus[d.gpu].largest = std::max(gpus[d.gpu].largest, slices);
    }
  }
  for (const GpuSlices& g : gpus) {
    out.free += g.free;
    out.stranded += g.free - g.largest;
  }
  return out;
}

}  // namespace migsim
