#pragma once
// The MIG edition of the packing benchmark: openb requests mapped to A100 MIG profiles,
// and a GPU's state as the GPU instances (GIs) on it. With a static layout the GIs exist
// from the start and a pod takes a free one of its profile; with dynamic partitioning a
// GPU starts empty and a pod creates its GI at a placement the rules allow.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_layout.h"
#include "sim/policy/gpu_fragmentation.h"
#include "sim/policy/gpu_share.h"

namespace migsim {

// The smallest classic profile of `model` whose compute and memory shares both cover the
// pod's per-GPU milli (e.g. on an A100-40GB: <= 125 milli -> 1g.5gb, <= 250 -> 2g.10gb,
// <= 428 -> 3g.20gb, <= 500 -> 4g.20gb, more -> 7g.40gb), as an index into
// model.profiles; nullopt for a CPU-only pod.
std::optional<int> ProfileForShare(const GpuModel& model, int32_t gpu_milli);

struct MigGi {
  MigPlacement placement;
  bool occupied = false;
};

struct MigGpu {
  std::vector<MigGi> gis;
};

// Compute slices of the GPU's occupied GIs.
int MigComputeUsed(const GpuModel& model, const MigGpu& gpu);

struct MigCandidate {
  int gpu = 0;
  int start = 0;
  bool create = false;  // a new GI (dynamic) rather than a free existing one (static)
};

// Where a GI of `profile` can go on `gpu`: free GIs of that profile, or — when `dynamic`
// — new placements the rules allow next to the existing GIs. Appends to `out`.
void MigCandidates(const GpuModel& model, const MigGpu& gpu, int gpu_index, int profile,
                   bool dynamic, std::vector<MigCandidate>& out);

// `gpu` with the candidate taken.
MigGpu WithGi(const MigGpu& gpu, const MigCandidate& c, int profile);

// A typical MIG request: a profile and its probability among the workload's GPU pods.
struct TypicalProfile {
  int profile = 0;
  double p = 0;
};

// The typical pods' GPU requests as profiles (CPU-only and multi-GPU pods left out,
// probabilities renormalised over the rest).
std::vector<TypicalProfile> TypicalProfiles(const GpuModel& model,
                                            std::span<const TypicalPod> typical);

// MIG fragmentation of one GPU, in compute slices: the free slices weighted by the
// probability of the typical profiles that could not be placed there (the FGD measure's
// idea applied to placements).
double MigFragmentation(const GpuModel& model, const MigGpu& gpu, bool dynamic,
                        std::span<const TypicalProfile> typical);

// How many maximal classic layouts of `model` still contain every GI on `gpu`: the
// futures it keeps open. `layouts` from EnumerateMaximalLayouts(model, true).
int CompatibleLayouts(const MigGpu& gpu, std::span<const MigLayout> layouts);

}  // namespace migsim
