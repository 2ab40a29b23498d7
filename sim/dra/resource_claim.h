#pragma once
// ResourceClaim (resource.k8s.io/v1) as the allocator needs it: spec.devices.requests[],
// each either `exactly` one sub-request or `firstAvailable`, an ordered list of
// alternatives of which the first that can be satisfied wins. A pod's claims come from
// ResourceClaimTemplates (one claim per pod) or are shared ResourceClaims (shared_claim.h,
// whose `config` says how pods share the devices). `constraints` are not modelled.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/dra/selector.h"

namespace migsim::dra {

enum class AllocationMode { kExactCount, kAll };

struct DeviceSubRequest {
  std::string name;                 // the request's name for `exactly`, the sub-request's otherwise
  std::string device_class;         // deviceClassName
  std::vector<Selector> selectors;  // all must match, besides the class's
  AllocationMode mode = AllocationMode::kExactCount;
  int32_t count = 1;  // ExactCount only; >= 1

  bool operator==(const DeviceSubRequest&) const = default;
};

struct DeviceRequest {
  std::string name;
  // `exactly`: one entry. `firstAvailable`: the alternatives in order of preference.
  std::vector<DeviceSubRequest> alternatives;
  bool first_available = false;

  bool operator==(const DeviceRequest&) const = default;
};

struct ResourceClaim {
  std::string name;
  std::vector<DeviceRequest> requests;  // all must be satisfied, on one node

  bool operator==(const ResourceClaim&) const = default;
};

}  // namespace migsim::dra
