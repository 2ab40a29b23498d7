#include "sim/cluster/gpu_model.h"

#include <algorithm>

#include "sim/cluster/gpu_catalog.h"

namespace migsim {
namespace {

// Built on first use and never modified afterwards, so handing out pointers into it is safe
// and there is no mutable global state.
const std::vector<GpuModel>& Catalog() {
  static const std::vector<GpuModel> catalog = BuildGpuCatalog();
  return catalog;
}

const GpuModel* FindByNameOrLabel(std::string_view name) {
  for (const GpuModel& model : Catalog()) {
    if (model.name == name || model.product_label == name) return &model;
  }
  return nullptr;
}

}  // namespace

std::string MigProfile::ResourceSuffix() const {
  std::string suffix = name;
  std::replace(suffix.begin(), suffix.end(), '+', '.');
  return suffix;
}

int GpuModel::FindProfile(std::string_view profile_name) const {
  for (size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i].name == profile_name) return static_cast<int>(i);
  }
  return -1;
}

std::span<const GpuModel> AllGpuModels() { return Catalog(); }

const GpuModel* FindGpuModel(std::string_view name) {
  if (const GpuModel* model = FindByNameOrLabel(name)) return model;
  for (const GpuModelAlias& alias : GpuModelAliases()) {
    if (alias.alias == name) return FindByNameOrLabel(alias.name);
  }
  return nullptr;
}

}  // namespace migsim
