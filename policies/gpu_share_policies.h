#pragma once
// The six GPU-sharing policies of the ATC'23 FGD study (openb-protocol.md §4), by name:
// "random", "dot-product", "gpu-clustering", "gpu-packing", "best-fit-share", "fgd".

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/gpu_share_policy.h"

namespace migsim {

// A new policy, or nullptr for an unknown name. `context` must outlive it.
std::unique_ptr<GpuSharePolicy> MakeGpuSharePolicy(std::string_view name,
                                                   const GpuShareContext& context);
std::vector<std::string> GpuSharePolicyNames();

std::unique_ptr<GpuSharePolicy> MakeRandomSharePolicy(const GpuShareContext& context);
std::unique_ptr<GpuSharePolicy> MakeDotProductPolicy();
std::unique_ptr<GpuSharePolicy> MakeGpuClusteringPolicy();
std::unique_ptr<GpuSharePolicy> MakeGpuPackingPolicy();
std::unique_ptr<GpuSharePolicy> MakeBestFitSharePolicy();
std::unique_ptr<GpuSharePolicy> MakeFgdPolicy(const GpuShareContext& context);

}  // namespace migsim
