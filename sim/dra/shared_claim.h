#pragma once
// A ResourceClaim object that several pods reference by name (spec.resourceClaims[]
// .resourceClaimName), as opposed to the claim each pod gets from a ResourceClaimTemplate.
// The scheduler allocates it once, when the first pod using it is scheduled; every later
// pod goes to the node its devices are on and uses the same devices. Its allocation is
// released when no pod reserves it any more (status.reservedFor is empty): migsim follows
// that rule, not a deletion of the claim object, which a run never does.
//
// How the pods sharing the devices share them is the claim's spec.devices.config: NVIDIA's
// DRA driver reads a GpuConfig or MigDeviceConfig whose `sharing` is TimeSlicing (with an
// interval) or MPS (with each client's active thread percentage and pinned memory limit).
// A claim without one is time-sliced: the driver's default for a shared claim.

#include <cstdint>

#include "sim/core/ids.h"
#include "sim/dra/resource_claim.h"

namespace migsim::dra {

// An index into the scenario's shared claims.
using SharedClaimId = Id<struct SharedClaimTag>;

enum class SharingStrategy : uint8_t { kTimeSlicing, kMps };

// timeSlicingConfig.interval. Recorded, not modelled: the node's time-slicing switch
// overhead applies whatever the interval.
enum class TimeSliceInterval : uint8_t { kDefault, kShort, kMedium, kLong };

struct DeviceSharing {
  SharingStrategy strategy = SharingStrategy::kTimeSlicing;
  TimeSliceInterval interval = TimeSliceInterval::kDefault;
  // MPS: mpsConfig.defaultActiveThreadPercentage, each client's cap on the device's SMs,
  // in 1..100; and defaultPinnedDeviceMemoryLimit, each client's device memory, in MiB
  // (0: no limit, the clients share the framebuffer as time-sliced processes do).
  int32_t active_thread_percentage = 100;
  int64_t pinned_memory_limit_mib = 0;

  bool operator==(const DeviceSharing&) const = default;
};

struct SharedClaim {
  ResourceClaim claim;  // claim.name: the object's name
  DeviceSharing sharing;

  bool operator==(const SharedClaim&) const = default;
};

}  // namespace migsim::dra
