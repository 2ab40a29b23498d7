#include "sim/dra/device_class.h"

#include "sim/core/check.h"

namespace migsim::dra {
namespace {

DeviceClass BuiltIn(const char* name, const char* type) {
  Result<Selector> selector =
      Selector::Parse(std::string("device.driver == \"gpu.nvidia.com\" && "
                                  "device.attributes[\"gpu.nvidia.com\"].type == \"") +
                      type + "\"");
  MIGSIM_CHECK(selector.ok(), "a built-in device class selector parses");
  return DeviceClass{.name = name, .selectors = {std::move(selector).value()}};
}

}  // namespace

bool DeviceClass::Matches(const Device& device) const {
  for (const Selector& selector : selectors) {
    if (!selector.Matches(device)) return false;
  }
  return true;
}

std::vector<DeviceClass> NvidiaDeviceClasses() {
  std::vector<DeviceClass> classes;
  classes.push_back(BuiltIn("gpu.nvidia.com", "gpu"));
  classes.push_back(BuiltIn("mig.nvidia.com", "mig"));
  return classes;
}

const DeviceClass* FindDeviceClass(std::span<const DeviceClass> classes, std::string_view name) {
  for (const DeviceClass& device_class : classes) {
    if (device_class.name == name) return &device_class;
  }
  return nullptr;
}

}  // namespace migsim::dra
