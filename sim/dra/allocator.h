#pragma once
// The scheduler's DRA plugin on one node: which of the node's devices are allocated, what
// is left of its shared counters, and the search that finds devices for a pod's claims.
//
// Find is Filter and Reserve's choice: every request of every claim is satisfied on this
// node, or nothing is. Requests are taken in order (claims in order, requests in order);
// a firstAvailable request tries its alternatives in order and the first that leads to a
// full allocation wins; an ExactCount request takes the first `count` devices in slice
// order that match its class and selectors and whose counters are free; an All request
// takes every matching device, and fails when one of them is not free (or none matches).
// When a later request cannot be satisfied, earlier choices are revisited (backtracking),
// as kube-scheduler's allocator does, up to kSearchBudget device tries per Find; past it
// the pod is treated as not fitting the node. Deterministic.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/dra/device_class.h"
#include "sim/dra/resource_claim.h"
#include "sim/dra/resource_slice.h"

namespace migsim::dra {

// The devices allocated for one request of one claim.
struct RequestAllocation {
  uint32_t claim = 0;             // index into the pod's claims
  uint32_t request = 0;           // index into the claim's requests
  uint32_t alternative = 0;       // which sub-request was satisfied (0 for `exactly`)
  std::vector<uint32_t> devices;  // indices into the slice's devices, in slice order
  bool operator==(const RequestAllocation&) const = default;
};

// A pod's allocation on a node: a claim's status.allocation, for all its claims.
struct PodAllocation {
  std::vector<RequestAllocation> requests;
  bool operator==(const PodAllocation&) const = default;
};

class Allocator {
 public:
  static constexpr int64_t kSearchBudget = 100000;

  // `model` must outlive the allocator; `slice` from BuildResourceSlice for it.
  Allocator(const GpuModel& model, ResourceSlice slice);

  const ResourceSlice& slice() const { return slice_; }
  const GpuModel& model() const { return *model_; }
  bool allocated(uint32_t device) const { return allocated_[device] != 0; }
  int32_t counter_free(uint32_t counter) const { return counter_free_[counter]; }
  // True when the device is not allocated and every counter it consumes has room.
  bool Available(uint32_t device) const;

  // The devices for `claims` on this node, or nullopt when they cannot all be satisfied.
  // Claims naming a class not in `classes` cannot be satisfied. Changes nothing.
  std::optional<PodAllocation> Find(std::span<const ResourceClaim> claims,
                                    std::span<const DeviceClass> classes) const;
  // Takes the devices of `allocation` and consumes their counters. REQUIRES: every device
  // Available (as Find left them) and, on each GPU, the MIG devices then allocated form a
  // valid layout (checked: an allocator bug aborts).
  void Commit(const PodAllocation& allocation);
  // Gives the devices back. REQUIRES: `allocation` was committed and not released.
  void Release(const PodAllocation& allocation);

  // An unhealthy GPU's devices are not Available (those allocated stay so until released).
  void SetGpuHealthy(int gpu, bool healthy);
  bool gpu_healthy(int gpu) const {
    return static_cast<size_t>(gpu) >= unhealthy_.size() || unhealthy_[gpu] == 0;
  }

  // The MIG devices allocated on `gpu` (dynamic MIG: the instances that exist), sorted by
  // start; static MIG devices are listed whether allocated or not.
  MigLayout Layout(int gpu) const;

 private:
  void Take(uint32_t device, int sign);

  const GpuModel* model_;
  ResourceSlice slice_;
  std::vector<uint8_t> allocated_;     // by device
  std::vector<int32_t> counter_free_;  // by counter
  std::vector<uint8_t> unhealthy_;     // by GPU, 1 when unhealthy; empty until one is
};

}  // namespace migsim::dra
