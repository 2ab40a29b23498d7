// Human-readable names for results: pods, owners and devices.
#include <string>

#include "sim/engine/engine.h"

namespace migsim {

std::string Engine::PodName(const Pod& pod) const {
  return controllers_[pod.owner.value()]->PodName(pod);
}

std::string Engine::OwnerName(const Pod& pod) const {
  return controllers_[pod.owner.value()]->name();
}

std::string Engine::ControllerName(OwnerId owner) const {
  return controllers_[owner.value()]->name();
}

std::string Engine::DeviceName(const Pod& pod) const {
  if (pod.device_count == 0) return "";
  const GpuModel& model = *cluster_->nodes[pod.node.value()].type->gpu;
  std::string out;
  for (uint32_t k = pod.device_begin; k < pod.device_begin + pod.device_count; ++k) {
    const DeviceDesc& d = device_records_.desc[k];
    if (!out.empty()) out += "+";
    out += "gpu" + std::to_string(d.gpu);
    if (d.profile >= 0) {
      out += "/" + model.profiles[d.profile].name + "@" + std::to_string(d.start);
    }
    if (d.units > 0) {
      // A fractional share: "250m" of a 1000-milli GPU, "3u" of other unit counts.
      out += "/" + std::to_string(d.count) + (d.units == 1000 ? "m" : "u");
    } else if (d.shared) {
      out += "/shared";
    }
  }
  return out;
}

}  // namespace migsim
