#include "sim/dra/allocator.h"

#include <algorithm>

#include "sim/core/check.h"

namespace migsim::dra {
namespace {

struct RequestRef {
  uint32_t claim = 0;
  uint32_t request = 0;
  const DeviceRequest* spec = nullptr;
};

// The depth-first search of Find over a scratch copy of the node's state.
class Search {
 public:
  Search(const Allocator& node, std::span<const ResourceClaim> claims,
         std::span<const DeviceClass> classes)
      : node_(node), classes_(classes) {
    for (uint32_t c = 0; c < claims.size(); ++c) {
      for (uint32_t r = 0; r < claims[c].requests.size(); ++r) {
        requests_.push_back({c, r, &claims[c].requests[r]});
      }
    }
    const ResourceSlice& slice = node.slice();
    taken_.resize(slice.devices.size());
    for (uint32_t d = 0; d < taken_.size(); ++d) taken_[d] = node.allocated(d);
    for (uint32_t c = 0; c < slice.counters.size(); ++c) free_.push_back(node.counter_free(c));
  }

  std::optional<PodAllocation> Run() {
    if (!Satisfy(0)) return std::nullopt;
    return std::move(result_);
  }

 private:
  bool Satisfy(size_t i) {
    if (i == requests_.size()) return true;
    const RequestRef& ref = requests_[i];
    const std::vector<DeviceSubRequest>& alternatives = ref.spec->alternatives;
    for (uint32_t a = 0; a < alternatives.size() && budget_ > 0; ++a) {
      std::vector<uint32_t> candidates = Matching(alternatives[a]);
      result_.requests.push_back({ref.claim, ref.request, a, {}});
      const bool all = alternatives[a].mode == AllocationMode::kAll;
      if (all ? TakeAll(i, candidates) : Pick(i, candidates, 0, alternatives[a].count)) {
        return true;
      }
      result_.requests.pop_back();
    }
    return false;
  }

  // Chooses `remaining` more devices from candidates[from..], in order, then the rest.
  bool Pick(size_t i, const std::vector<uint32_t>& candidates, size_t from, int32_t remaining) {
    if (remaining == 0) return Satisfy(i + 1);
    for (size_t k = from; k + remaining <= candidates.size() && budget_ > 0; ++k) {
      --budget_;
      const uint32_t d = candidates[k];
      if (!Free(d)) continue;
      Take(d, +1);
      if (Pick(i, candidates, k + 1, remaining - 1)) return true;
      Take(d, -1);
    }
    return false;
  }

  bool TakeAll(size_t i, const std::vector<uint32_t>& candidates) {
    if (candidates.empty()) return false;
    size_t taken = 0;
    while (taken < candidates.size() && Free(candidates[taken])) Take(candidates[taken++], +1);
    if (taken == candidates.size() && Satisfy(i + 1)) return true;
    while (taken > 0) Take(candidates[--taken], -1);
    return false;
  }

  std::vector<uint32_t> Matching(const DeviceSubRequest& sub) const {
    std::vector<uint32_t> out;
    const DeviceClass* device_class = FindDeviceClass(classes_, sub.device_class);
    if (device_class == nullptr) return out;
    const std::vector<Device>& devices = node_.slice().devices;
    for (uint32_t d = 0; d < devices.size(); ++d) {
      if (!device_class->Matches(devices[d])) continue;
      if (std::all_of(sub.selectors.begin(), sub.selectors.end(),
                      [&](const Selector& s) { return s.Matches(devices[d]); })) {
        out.push_back(d);
      }
    }
    return out;
  }

  bool Free(uint32_t d) const {
    if (taken_[d] || !node_.gpu_healthy(node_.slice().devices[d].gpu)) return false;
    for (const CounterUse& use : node_.slice().devices[d].consumes) {
      if (free_[use.counter] < use.amount) return false;
    }
    return true;
  }

  void Take(uint32_t d, int sign) {
    taken_[d] = sign > 0;
    for (const CounterUse& use : node_.slice().devices[d].consumes) {
      free_[use.counter] -= sign * use.amount;
    }
    std::vector<uint32_t>& devices = result_.requests.back().devices;
    if (sign > 0) {
      devices.push_back(d);
    } else {
      devices.pop_back();
    }
  }

  const Allocator& node_;
  std::span<const DeviceClass> classes_;
  std::vector<RequestRef> requests_;
  std::vector<uint8_t> taken_;
  std::vector<int32_t> free_;
  PodAllocation result_;
  int64_t budget_ = Allocator::kSearchBudget;
};

}  // namespace

Allocator::Allocator(const GpuModel& model, ResourceSlice slice)
    : model_(&model), slice_(std::move(slice)) {
  allocated_.assign(slice_.devices.size(), 0);
  for (const Counter& counter : slice_.counters) counter_free_.push_back(counter.capacity);
}

bool Allocator::Available(uint32_t device) const {
  if (allocated_[device] || !gpu_healthy(slice_.devices[device].gpu)) return false;
  for (const CounterUse& use : slice_.devices[device].consumes) {
    if (counter_free_[use.counter] < use.amount) return false;
  }
  return true;
}

std::optional<PodAllocation> Allocator::Find(std::span<const ResourceClaim> claims,
                                             std::span<const DeviceClass> classes) const {
  return Search(*this, claims, classes).Run();
}

void Allocator::Take(uint32_t device, int sign) {
  allocated_[device] = sign > 0;
  for (const CounterUse& use : slice_.devices[device].consumes) {
    counter_free_[use.counter] -= sign * use.amount;
    MIGSIM_CHECK(counter_free_[use.counter] >= 0, "a DRA counter is over-consumed");
  }
}

void Allocator::Commit(const PodAllocation& allocation) {
  for (const RequestAllocation& request : allocation.requests) {
    for (uint32_t device : request.devices) {
      MIGSIM_CHECK(Available(device), "a committed DRA device is free");
      Take(device, +1);
      if (slice_.devices[device].created_on_allocation) {
        const int gpu = slice_.devices[device].gpu;
        MIGSIM_CHECK(ValidateLayout(*model_, Layout(gpu)).ok(),
                     "dynamic MIG allocations form a valid layout");
      }
    }
  }
}

void Allocator::Release(const PodAllocation& allocation) {
  for (const RequestAllocation& request : allocation.requests) {
    for (uint32_t device : request.devices) {
      MIGSIM_CHECK(allocated_[device], "a released DRA device was allocated");
      Take(device, -1);
    }
  }
}

void Allocator::SetGpuHealthy(int gpu, bool healthy) {
  if (unhealthy_.size() <= static_cast<size_t>(gpu)) unhealthy_.resize(gpu + 1, 0);
  unhealthy_[gpu] = healthy ? 0 : 1;
}

MigLayout Allocator::Layout(int gpu) const {
  MigLayout layout;
  for (uint32_t d = 0; d < slice_.devices.size(); ++d) {
    const Device& device = slice_.devices[d];
    if (device.gpu != gpu || !device.mig) continue;
    if (device.created_on_allocation && !allocated_[d]) continue;
    layout.push_back(*device.mig);
  }
  std::sort(layout.begin(), layout.end(),
            [](const MigPlacement& a, const MigPlacement& b) { return a.start < b.start; });
  return layout;
}

}  // namespace migsim::dra
