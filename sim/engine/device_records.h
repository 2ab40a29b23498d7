#pragma once
// The devices bound pods hold, in one pool for the run: a pod's are the `device_count`
// records from its Pod::device_begin. Each is the device's index on its node
// (NodeRuntime::Held) and, at the same index, the device's identity at bind time, which
// stays readable after a MIG change rebuilds the node (Engine::DeviceName).

#include <cstdint>
#include <vector>

#include "sim/engine/node_runtime.h"

namespace migsim {

struct DeviceDesc {
  int16_t gpu = 0;
  int16_t profile = -1;  // MIG profile index, or -1 for a whole GPU
  int16_t start = 0;
  bool shared = false;
  int32_t count = 1;  // replicas (or fractional units) held
  int32_t units = 0;  // a fractional share's units per GPU; 0 otherwise
};

struct DeviceRecords {
  std::vector<NodeRuntime::Held> held;
  std::vector<DeviceDesc> desc;
};

}  // namespace migsim
