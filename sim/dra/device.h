#pragma once
// A DRA device as a driver publishes it in a node's ResourceSlice (resource.k8s.io/v1):
// typed attributes and capacities under the driver's domain, and the shared counters it
// consumes when allocated (KEP-4815 partitionable devices).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/cluster/mig_layout.h"

namespace migsim::dra {

// The driver name and attribute domain of NVIDIA's GPU DRA driver.
inline constexpr const char* kNvidiaDriver = "gpu.nvidia.com";

// An attribute value: int, bool or string (the API's version type is not modelled).
using AttributeValue = std::variant<int64_t, bool, std::string>;

// A quantity in its base unit (bytes for memory), as `quantity("10Gi")` yields it.
struct Quantity {
  int64_t value = 0;
  auto operator<=>(const Quantity&) const = default;
};

// `amount` of counter `counter` (an index into the slice's counters).
struct CounterUse {
  uint32_t counter = 0;
  int32_t amount = 0;
};

struct Device {
  std::string name;                    // unique in its slice: "gpu-0", "gpu-0-mig-1g.5gb-4"
  std::string driver = kNvidiaDriver;  // also the domain of its attributes and capacities
  std::map<std::string, AttributeValue> attributes;  // by unqualified name
  std::map<std::string, Quantity> capacity;          // by unqualified name
  std::vector<CounterUse> consumes;
  // What the device is on the node: GPU index, and the GPU instance for a MIG device.
  int gpu = 0;
  std::optional<MigPlacement> mig;
  // A dynamic MIG device: the instance is created when the device is allocated and
  // destroyed when it is released (NVIDIA's DynamicMIG).
  bool created_on_allocation = false;
};

}  // namespace migsim::dra
