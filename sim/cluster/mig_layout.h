#pragma once
// MIG layouts: the GPU instances (GIs) of one GPU, each at an explicit placement.
//
// A layout is valid when every GI sits at one of its profile's allowed starts, no two
// GIs share a memory slice, the compute slices add up to at most the GPU's, no profile
// exceeds its per-GPU maximum, and at most one "+me" GI exists (domain.md §1.4, §7).

#include <span>
#include <string>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/core/status.h"

namespace migsim {

struct MigPlacement {
  int profile = 0;  // index into GpuModel::profiles
  int start = 0;    // first memory slice
  auto operator<=>(const MigPlacement&) const = default;
};

using MigLayout = std::vector<MigPlacement>;

// Ok, or InvalidArgument whose message names the first broken rule, e.g.
// "3g.20gb at memory slice 2 is not an allowed placement (allowed: 0, 4)" or
// "2g.10gb at 2 overlaps 3g.20gb at 0".
Status ValidateLayout(const GpuModel& model, std::span<const MigPlacement> layout);

// True when no further GI of any allowed profile fits next to `layout`. The allowed
// profiles are the classic ones with classic_only, otherwise every profile except "+me":
// a +me GI takes the same placements as its base profile, so it never decides whether a
// layout is maximal. REQUIRES: ValidateLayout(model, layout).ok().
bool IsMaximal(const GpuModel& model, std::span<const MigPlacement> layout, bool classic_only);

// Every maximal valid layout, each sorted by start, bigger GIs first in the order of the
// list (7g@0 comes first). With classic_only, only classic profiles are used (19 layouts on
// an 8-slot GPU, 5 on an A30); without it, every profile except "+me" (78 layouts on an
// 8-slot GPU, 5 on an A30). Empty for a GPU without MIG.
std::vector<MigLayout> EnumerateMaximalLayouts(const GpuModel& model, bool classic_only);

struct ProfileCount {
  int profile = 0;  // index into GpuModel::profiles
  int count = 0;
};

// Finds placements for a multiset of profiles, as mig-parted does when it tries
// creation orders until one succeeds: larger GIs first, lowest free start first,
// backtracking. Deterministic. The result is sorted by start. InvalidArgument with a reason
// when no placement exists, e.g. "2 x 4g.20gb exceeds its maximum of 1 per GPU".
Result<MigLayout> PlaceProfiles(const GpuModel& model, std::span<const ProfileCount> counts);

// "1g.5gb@0 + 2g.10gb@2 + 3g.20gb@4", in the layout's order; "(empty)" for no GIs.
std::string DescribeLayout(const GpuModel& model, std::span<const MigPlacement> layout);

}  // namespace migsim
