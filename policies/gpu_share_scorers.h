#pragma once
// The six GPU-sharing policies of the ATC'23 FGD study (openb-protocol.md §4), by name:
// "random", "dot-product", "gpu-clustering", "gpu-packing", "best-fit-share", "fgd".

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/gpu_share_scorer.h"

namespace migsim {

// A new policy, or nullptr for an unknown name. `context` must outlive it.
std::unique_ptr<GpuShareScorer> MakeGpuShareScorer(std::string_view name,
                                                   const GpuShareContext& context);
std::vector<std::string> GpuShareScorerNames();

std::unique_ptr<GpuShareScorer> MakeRandomSharePolicy(const GpuShareContext& context);
std::unique_ptr<GpuShareScorer> MakeDotProductPolicy();
std::unique_ptr<GpuShareScorer> MakeGpuClusteringPolicy();
std::unique_ptr<GpuShareScorer> MakeGpuPackingPolicy();
std::unique_ptr<GpuShareScorer> MakeBestFitSharePolicy();
std::unique_ptr<GpuShareScorer> MakeFgdPolicy(const GpuShareContext& context);

}  // namespace migsim
