#pragma once
// DeviceClass (resource.k8s.io/v1): a named set of devices, defined by selectors that all
// must hold. NVIDIA's DRA driver installs two: gpu.nvidia.com (whole GPUs) and
// mig.nvidia.com (MIG devices), which select on the driver and its `type` attribute.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/dra/selector.h"

namespace migsim::dra {

struct DeviceClass {
  std::string name;
  std::vector<Selector> selectors;  // all must match

  bool Matches(const Device& device) const;
};

// gpu.nvidia.com and mig.nvidia.com, as the driver's Helm chart defines them.
std::vector<DeviceClass> NvidiaDeviceClasses();

// The class called `name`, or nullptr. The pointer is into `classes`.
const DeviceClass* FindDeviceClass(std::span<const DeviceClass> classes, std::string_view name);

}  // namespace migsim::dra
