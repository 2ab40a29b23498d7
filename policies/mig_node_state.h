#pragma once
// A node's MIG state as the MIG placement policies read it from the policy view.

#include <string>
#include <string_view>

#include "sim/policy/cluster_view.h"
#include "sim/policy/mig_share.h"

namespace migsim {

inline constexpr std::string_view kMigResourcePrefix = "nvidia.com/mig-";

// The profile of `model` that the mixed strategy advertises as `resource`
// ("nvidia.com/mig-1g.5gb"), as an index into model.profiles, or -1.
int ProfileOfResource(const GpuModel& model, const std::string& resource);

// GPU `g` of the node as the fill study sees a GPU: its instances, occupied when a pod
// holds the device.
MigGpu GpuState(const NodeInfo& node, int g);

// The scheduler's fit without the extended resources (what a new GPU instance cannot
// change), on a GPU node whose MIG manager is idle.
bool FitsBesidesDevices(const PodView& pod, const NodeInfo& node);

}  // namespace migsim
