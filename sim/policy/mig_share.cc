#include "sim/policy/mig_share.h"

#include <algorithm>

#include "sim/policy/gpu_fragmentation.h"

namespace migsim {

std::optional<int> ProfileForShare(const GpuModel& model, int32_t gpu_milli) {
  if (gpu_milli <= 0) return std::nullopt;
  std::optional<int> best;
  for (size_t i = 0; i < model.profiles.size(); ++i) {
    const MigProfile& p = model.profiles[i];
    if (!p.classic) continue;
    // Compare shares exactly: milli / 1000 <= slices / total  <=>  milli * total <= 1000 * slices.
    const bool compute = int64_t{gpu_milli} * model.compute_slices <= 1000 * p.compute_slices;
    const bool memory = int64_t{gpu_milli} * model.memory_slices <= 1000 * p.memory_slices;
    if (!compute || !memory) continue;
    if (!best || p.compute_slices < model.profiles[*best].compute_slices ||
        (p.compute_slices == model.profiles[*best].compute_slices &&
         p.memory_slices < model.profiles[*best].memory_slices)) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

int MigComputeUsed(const GpuModel& model, const MigGpu& gpu) {
  int used = 0;
  for (const MigGi& gi : gpu.gis) {
    if (gi.occupied) used += model.profiles[gi.placement.profile].compute_slices;
  }
  return used;
}

namespace {

MigLayout Layout(const MigGpu& gpu) {
  MigLayout layout;
  for (const MigGi& gi : gpu.gis) layout.push_back(gi.placement);
  return layout;
}

}  // namespace

void MigCandidates(const GpuModel& model, const MigGpu& gpu, int gpu_index, int profile,
                   bool dynamic, std::vector<MigCandidate>& out) {
  if (!dynamic) {
    for (const MigGi& gi : gpu.gis) {
      if (!gi.occupied && gi.placement.profile == profile) {
        out.push_back({gpu_index, gi.placement.start, false});
      }
    }
    return;
  }
  MigLayout layout = Layout(gpu);
  for (int start : model.profiles[profile].starts) {
    layout.push_back({profile, start});
    if (ValidateLayout(model, layout).ok()) out.push_back({gpu_index, start, true});
    layout.pop_back();
  }
}

MigGpu WithGi(const MigGpu& gpu, const MigCandidate& c, int profile) {
  MigGpu next = gpu;
  if (c.create) {
    next.gis.push_back({{profile, c.start}, true});
    return next;
  }
  for (MigGi& gi : next.gis) {
    if (!gi.occupied && gi.placement.profile == profile && gi.placement.start == c.start) {
      gi.occupied = true;
      break;
    }
  }
  return next;
}

std::vector<TypicalProfile> TypicalProfiles(const GpuModel& model,
                                            std::span<const TypicalPod> typical) {
  std::vector<TypicalProfile> out;
  double total = 0;
  for (const TypicalPod& t : typical) {
    if (t.shape.num_gpu != 1) continue;
    std::optional<int> profile = ProfileForShare(model, t.shape.gpu_milli);
    if (!profile) continue;
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const TypicalProfile& q) { return q.profile == *profile; });
    if (it == out.end()) {
      out.push_back({*profile, t.p});
    } else {
      it->p += t.p;
    }
    total += t.p;
  }
  for (TypicalProfile& q : out) q.p /= total;
  return out;
}

double MigFragmentation(const GpuModel& model, const MigGpu& gpu, bool dynamic,
                        std::span<const TypicalProfile> typical) {
  const int free = model.compute_slices - MigComputeUsed(model, gpu);
  if (free <= 0) return 0;
  double frag = 0;
  std::vector<MigCandidate> scratch;
  for (const TypicalProfile& q : typical) {
    scratch.clear();
    MigCandidates(model, gpu, 0, q.profile, dynamic, scratch);
    if (scratch.empty()) frag += q.p * free;
  }
  return frag;
}

int CompatibleLayouts(const MigGpu& gpu, std::span<const MigLayout> layouts) {
  int count = 0;
  for (const MigLayout& layout : layouts) {
    bool contains_all = true;
    for (const MigGi& gi : gpu.gis) {
      if (std::find(layout.begin(), layout.end(), gi.placement) == layout.end()) {
        contains_all = false;
        break;
      }
    }
    count += contains_all ? 1 : 0;
  }
  return count;
}

}  // namespace migsim
