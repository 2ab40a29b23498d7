#include "policies/gpu_share_scorers.h"

namespace migsim {

std::unique_ptr<GpuShareScorer> MakeGpuShareScorer(std::string_view name,
                                                   const GpuShareContext& context) {
  if (name == "random") return MakeRandomSharePolicy(context);
  if (name == "dot-product") return MakeDotProductPolicy();
  if (name == "gpu-clustering") return MakeGpuClusteringPolicy();
  if (name == "gpu-packing") return MakeGpuPackingPolicy();
  if (name == "best-fit-share") return MakeBestFitSharePolicy();
  if (name == "fgd") return MakeFgdPolicy(context);
  return nullptr;
}

std::vector<std::string> GpuShareScorerNames() {
  return {"random", "dot-product", "gpu-clustering", "gpu-packing", "best-fit-share", "fgd"};
}

}  // namespace migsim
