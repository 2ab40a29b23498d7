#pragma once
// Internal to sim/cluster: the data tables behind AllGpuModels() and FindGpuModel().
// Other modules use gpu_model.h instead.

#include <span>
#include <string_view>
#include <vector>

#include "sim/cluster/gpu_model.h"

namespace migsim {

// A second name FindGpuModel() accepts for the model called `name`.
struct GpuModelAlias {
  std::string_view alias;
  std::string_view name;
};

// Builds every model of the catalog, in the order AllGpuModels() returns them.
std::vector<GpuModel> BuildGpuCatalog();

// The accepted short names, e.g. "A100-40GB" for "A100-SXM4-40GB".
std::span<const GpuModelAlias> GpuModelAliases();

}  // namespace migsim
