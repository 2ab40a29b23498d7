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

// Records are appended as pods bind. With EngineConfig::release_ended_pods a released
// pod's run of records is freed (Free) and the next pod binding as many devices takes it
// (Settle), so the pool follows the pods alive; without, nothing is freed and a pod's
// records stay readable after it ended.
struct DeviceRecords {
  std::vector<NodeRuntime::Held> held;
  std::vector<DeviceDesc> desc;
  std::vector<std::vector<uint32_t>> free_by_count;  // starts of free runs, by length

  // The `count` records from `begin`, the last ones appended, move to a free run of that
  // length if there is one (and leave the end); returns where they are.
  uint32_t Settle(uint32_t begin, uint32_t count) {
    if (count == 0 || count >= free_by_count.size() || free_by_count[count].empty()) {
      return begin;
    }
    const uint32_t to = free_by_count[count].back();
    free_by_count[count].pop_back();
    for (uint32_t k = 0; k < count; ++k) {
      held[to + k] = held[begin + k];
      desc[to + k] = desc[begin + k];
    }
    held.resize(begin);
    desc.resize(begin);
    return to;
  }
  void Free(uint32_t begin, uint32_t count) {
    if (count == 0) return;
    if (count >= free_by_count.size()) free_by_count.resize(count + 1);
    free_by_count[count].push_back(begin);
  }
};

}  // namespace migsim
