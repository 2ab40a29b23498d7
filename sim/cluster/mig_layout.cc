#include "sim/cluster/mig_layout.h"

#include <algorithm>
#include <cstdint>

namespace migsim {
namespace {

bool ValidIndex(const GpuModel& model, int profile) {
  return profile >= 0 && profile < static_cast<int>(model.profiles.size());
}

bool StartAllowed(const MigProfile& profile, int start) {
  return std::find(profile.starts.begin(), profile.starts.end(), start) != profile.starts.end();
}

// Memory slices as bits: a GPU has at most 8, and overlap becomes a single AND.
uint32_t SliceMask(const MigProfile& profile, int start) {
  return ((uint32_t{1} << profile.memory_slices) - 1) << start;
}

std::string JoinInts(const std::vector<int>& values) {
  std::string out;
  for (int value : values) {
    if (!out.empty()) out += ", ";
    out += std::to_string(value);
  }
  return out;
}

std::string NameAt(const GpuModel& model, const MigPlacement& placement) {
  return model.profiles[placement.profile].name + " at " + std::to_string(placement.start);
}

Status CheckIndicesAndStarts(const GpuModel& model, std::span<const MigPlacement> layout) {
  if (!model.mig_capable() && !layout.empty()) {
    return Status::InvalidArgument(model.name + " does not support MIG");
  }
  for (const MigPlacement& placement : layout) {
    if (!ValidIndex(model, placement.profile)) {
      return Status::InvalidArgument("profile index " + std::to_string(placement.profile) +
                                     " is not a MIG profile of " + model.name);
    }
    const MigProfile& profile = model.profiles[placement.profile];
    if (!StartAllowed(profile, placement.start)) {
      return Status::InvalidArgument(
          profile.name + " at memory slice " + std::to_string(placement.start) +
          " is not an allowed placement (allowed: " + JoinInts(profile.starts) + ")");
    }
  }
  return Status::Ok();
}

// Names the later GI first: it is the one that cannot be created next to the earlier one.
Status CheckOverlaps(const GpuModel& model, std::span<const MigPlacement> layout) {
  for (size_t i = 0; i < layout.size(); ++i) {
    uint32_t mask = SliceMask(model.profiles[layout[i].profile], layout[i].start);
    for (size_t j = 0; j < i; ++j) {
      if (mask & SliceMask(model.profiles[layout[j].profile], layout[j].start)) {
        return Status::InvalidArgument(NameAt(model, layout[i]) + " overlaps " +
                                       NameAt(model, layout[j]));
      }
    }
  }
  return Status::Ok();
}

Status CheckComputeSlices(const GpuModel& model, std::span<const MigPlacement> layout) {
  int used = 0;
  for (const MigPlacement& placement : layout) {
    used += model.profiles[placement.profile].compute_slices;
  }
  if (used <= model.compute_slices) return Status::Ok();
  return Status::InvalidArgument("the GIs use " + std::to_string(used) +
                                 " compute slices, more than the " +
                                 std::to_string(model.compute_slices) + " of " + model.name);
}

Status CheckMaxCounts(const GpuModel& model, std::span<const MigPlacement> layout) {
  std::vector<int> counts(model.profiles.size(), 0);
  for (const MigPlacement& placement : layout) ++counts[placement.profile];
  for (size_t p = 0; p < counts.size(); ++p) {
    const MigProfile& profile = model.profiles[p];
    if (counts[p] > profile.max_count) {
      return Status::InvalidArgument(std::to_string(counts[p]) + " GIs of " + profile.name +
                                     " exceed its maximum of " + std::to_string(profile.max_count) +
                                     " per GPU");
    }
  }
  return Status::Ok();
}

Status CheckMediaExtensions(const GpuModel& model, std::span<const MigPlacement> layout) {
  const MigPlacement* first = nullptr;
  for (const MigPlacement& placement : layout) {
    if (!model.profiles[placement.profile].media_extensions) continue;
    if (first != nullptr) {
      return Status::InvalidArgument("at most one +me GI is allowed per GPU, but " +
                                     NameAt(model, *first) + " and " + NameAt(model, placement) +
                                     " both are");
    }
    first = &placement;
  }
  return Status::Ok();
}

// What a valid layout already uses, so that "does one more GI fit?" costs O(1) and builds
// no strings; the enumeration asks it thousands of times.
struct Occupancy {
  uint32_t memory_mask = 0;
  int compute_used = 0;
  int media_extensions = 0;
  std::vector<int> per_profile;
};

void Add(const GpuModel& model, int profile, int start, int sign, Occupancy* occupancy) {
  const MigProfile& p = model.profiles[profile];
  if (sign > 0) {
    occupancy->memory_mask |= SliceMask(p, start);
  } else {
    occupancy->memory_mask &= ~SliceMask(p, start);
  }
  occupancy->compute_used += sign * p.compute_slices;
  occupancy->media_extensions += sign * (p.media_extensions ? 1 : 0);
  occupancy->per_profile[profile] += sign;
}

Occupancy Occupy(const GpuModel& model, std::span<const MigPlacement> layout) {
  Occupancy occupancy;
  occupancy.per_profile.assign(model.profiles.size(), 0);
  for (const MigPlacement& placement : layout) {
    Add(model, placement.profile, placement.start, +1, &occupancy);
  }
  return occupancy;
}

bool Fits(const GpuModel& model, const Occupancy& occupancy, int profile, int start) {
  const MigProfile& p = model.profiles[profile];
  return StartAllowed(p, start) && (occupancy.memory_mask & SliceMask(p, start)) == 0 &&
         occupancy.compute_used + p.compute_slices <= model.compute_slices &&
         occupancy.per_profile[profile] < p.max_count &&
         !(p.media_extensions && occupancy.media_extensions > 0);
}

// +me profiles are never candidates: they take the same placements as their base profile,
// so they cannot change whether a layout is maximal; counting them would only relabel GIs
// and multiply every layout that has a 1g (or, on an A30, a 2g) in it.
bool IsCandidate(const MigProfile& profile, bool classic_only) {
  return classic_only ? profile.classic : !profile.media_extensions;
}

bool NothingFits(const GpuModel& model, const Occupancy& occupancy, bool classic_only) {
  for (size_t p = 0; p < model.profiles.size(); ++p) {
    if (!IsCandidate(model.profiles[p], classic_only)) continue;
    for (int start : model.profiles[p].starts) {
      if (Fits(model, occupancy, static_cast<int>(p), start)) return false;
    }
  }
  return true;
}

// The state of the depth-first walk over memory slices in EnumerateMaximalLayouts.
struct Enumeration {
  const GpuModel& model;
  bool classic_only;
  std::vector<int> candidates;  // profile indices, in the order tried at each slice
  Occupancy occupancy;
  MigLayout current;
  std::vector<MigLayout> found;
};

// Bigger GIs first, so the output starts with 7g@0, then 4g@0 + ..., like domain.md §1.4.
std::vector<int> CandidateOrder(const GpuModel& model, bool classic_only) {
  std::vector<int> order;
  for (size_t p = 0; p < model.profiles.size(); ++p) {
    if (IsCandidate(model.profiles[p], classic_only)) order.push_back(static_cast<int>(p));
  }
  std::stable_sort(order.begin(), order.end(), [&model](int a, int b) {
    const MigProfile& pa = model.profiles[a];
    const MigProfile& pb = model.profiles[b];
    if (pa.compute_slices != pb.compute_slices) return pa.compute_slices > pb.compute_slices;
    return pa.memory_slices > pb.memory_slices;
  });
  return order;
}

// At each slice either one candidate starts there or the slice stays free; every layout
// is reached by exactly one path, already sorted by start.
void Extend(Enumeration* e, int slice) {
  if (slice >= e->model.memory_slices) {
    if (NothingFits(e->model, e->occupancy, e->classic_only)) e->found.push_back(e->current);
    return;
  }
  for (int profile : e->candidates) {
    if (!Fits(e->model, e->occupancy, profile, slice)) continue;
    Add(e->model, profile, slice, +1, &e->occupancy);
    e->current.push_back({profile, slice});
    Extend(e, slice + e->model.profiles[profile].memory_slices);
    e->current.pop_back();
    Add(e->model, profile, slice, -1, &e->occupancy);
  }
  Extend(e, slice + 1);
}

// Per-profile totals of a request; merges repeated entries for the same profile.
Result<std::vector<int>> TotalsPerProfile(const GpuModel& model,
                                          std::span<const ProfileCount> counts) {
  std::vector<int> totals(model.profiles.size(), 0);
  for (const ProfileCount& count : counts) {
    if (!ValidIndex(model, count.profile)) {
      if (!model.mig_capable()) {
        return Status::InvalidArgument(model.name + " does not support MIG");
      }
      return Status::InvalidArgument("profile index " + std::to_string(count.profile) +
                                     " is not a MIG profile of " + model.name);
    }
    if (count.count < 0) {
      return Status::InvalidArgument("negative count " + std::to_string(count.count) + " for " +
                                     model.profiles[count.profile].name);
    }
    totals[count.profile] += count.count;
  }
  return totals;
}

std::string DescribeCounts(const GpuModel& model, const std::vector<int>& totals) {
  std::string out;
  for (size_t p = 0; p < totals.size(); ++p) {
    if (totals[p] == 0) continue;
    if (!out.empty()) out += " + ";
    out += std::to_string(totals[p]) + " x " + model.profiles[p].name;
  }
  return out.empty() ? "no GIs" : out;
}

// The reasons no placement search is needed to reject a request.
Status CheckRequest(const GpuModel& model, const std::vector<int>& totals) {
  int compute = 0, memory = 0, media_extensions = 0;
  for (size_t p = 0; p < totals.size(); ++p) {
    const MigProfile& profile = model.profiles[p];
    if (totals[p] > profile.max_count) {
      return Status::InvalidArgument(std::to_string(totals[p]) + " x " + profile.name +
                                     " exceeds its maximum of " +
                                     std::to_string(profile.max_count) + " per GPU");
    }
    compute += totals[p] * profile.compute_slices;
    memory += totals[p] * profile.memory_slices;
    media_extensions += profile.media_extensions ? totals[p] : 0;
  }
  auto too_many = [&model](int used, const char* what, int available) {
    return Status::InvalidArgument("the GIs need " + std::to_string(used) + " " + what +
                                   ", more than the " + std::to_string(available) + " of " +
                                   model.name);
  };
  if (media_extensions > 1) {
    return Status::InvalidArgument(std::to_string(media_extensions) +
                                   " +me GIs requested, but at most one is allowed per GPU");
  }
  if (compute > model.compute_slices) {
    return too_many(compute, "compute slices", model.compute_slices);
  }
  if (memory > model.memory_slices) {
    return too_many(memory, "memory slices", model.memory_slices);
  }
  return Status::Ok();
}

// The GIs one by one, larger first (more memory slices, then more compute slices), as the
// MIG guide advises creating a 3g before the 1g/2g next to it.
std::vector<int> LargestFirst(const GpuModel& model, const std::vector<int>& totals) {
  std::vector<int> profiles;
  for (size_t p = 0; p < totals.size(); ++p) {
    profiles.insert(profiles.end(), totals[p], static_cast<int>(p));
  }
  std::stable_sort(profiles.begin(), profiles.end(), [&model](int a, int b) {
    const MigProfile& pa = model.profiles[a];
    const MigProfile& pb = model.profiles[b];
    if (pa.memory_slices != pb.memory_slices) return pa.memory_slices > pb.memory_slices;
    return pa.compute_slices > pb.compute_slices;
  });
  return profiles;
}

// Places order[i..] by backtracking, lowest free start first. GIs of one profile are
// interchangeable, so each starts after the previous one of its profile; this keeps the
// search from retrying the same layout in every permutation.
bool PlaceFrom(const GpuModel& model, const std::vector<int>& order, size_t i, Occupancy* occupancy,
               MigLayout* layout) {
  if (i == order.size()) return true;
  const int profile = order[i];
  const bool same_as_previous = i > 0 && order[i - 1] == profile;
  const int min_start = same_as_previous ? layout->back().start + 1 : 0;
  for (int start : model.profiles[profile].starts) {
    if (start < min_start || !Fits(model, *occupancy, profile, start)) continue;
    Add(model, profile, start, +1, occupancy);
    layout->push_back({profile, start});
    if (PlaceFrom(model, order, i + 1, occupancy, layout)) return true;
    layout->pop_back();
    Add(model, profile, start, -1, occupancy);
  }
  return false;
}

}  // namespace

Status ValidateLayout(const GpuModel& model, std::span<const MigPlacement> layout) {
  for (auto check : {CheckIndicesAndStarts, CheckOverlaps, CheckComputeSlices, CheckMaxCounts,
                     CheckMediaExtensions}) {
    Status status = check(model, layout);
    if (!status.ok()) return status;
  }
  return Status::Ok();
}

bool IsMaximal(const GpuModel& model, std::span<const MigPlacement> layout, bool classic_only) {
  return NothingFits(model, Occupy(model, layout), classic_only);
}

std::vector<MigLayout> EnumerateMaximalLayouts(const GpuModel& model, bool classic_only) {
  if (!model.mig_capable()) return {};
  Enumeration e{.model = model,
                .classic_only = classic_only,
                .candidates = CandidateOrder(model, classic_only),
                .occupancy = Occupy(model, {}),
                .current = {},
                .found = {}};
  Extend(&e, 0);
  return std::move(e.found);
}

Result<MigLayout> PlaceProfiles(const GpuModel& model, std::span<const ProfileCount> counts) {
  Result<std::vector<int>> totals = TotalsPerProfile(model, counts);
  if (!totals.ok()) return totals.status();
  Status request = CheckRequest(model, totals.value());
  if (!request.ok()) return request;
  Occupancy occupancy = Occupy(model, {});
  MigLayout layout;
  if (!PlaceFrom(model, LargestFirst(model, totals.value()), 0, &occupancy, &layout)) {
    return Status::InvalidArgument("no placement of " + DescribeCounts(model, totals.value()) +
                                   " exists on " + model.name);
  }
  std::sort(layout.begin(), layout.end(),
            [](const MigPlacement& a, const MigPlacement& b) { return a.start < b.start; });
  return layout;
}

std::string DescribeLayout(const GpuModel& model, std::span<const MigPlacement> layout) {
  if (layout.empty()) return "(empty)";
  std::string out;
  for (const MigPlacement& placement : layout) {
    if (!out.empty()) out += " + ";
    out += ValidIndex(model, placement.profile) ? model.profiles[placement.profile].name
                                                : "#" + std::to_string(placement.profile);
    out += "@" + std::to_string(placement.start);
  }
  return out;
}

}  // namespace migsim
