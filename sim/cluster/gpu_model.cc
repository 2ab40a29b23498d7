#include "sim/cluster/gpu_model.h"

#include <algorithm>

namespace migsim {

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

}  // namespace migsim
