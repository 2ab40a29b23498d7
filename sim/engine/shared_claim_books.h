#pragma once
// The engine's books of a run's shared ResourceClaims, by dra::SharedClaimId: their specs,
// what the scheduler sees of each (states(): PodView::shared_claims points there, so the
// books are never resized or moved after construction), and per claim the devices, tenants
// and GPU time of its allocation (engine_shared_claims.cc keeps them).

#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/dra/shared_claim.h"
#include "sim/engine/node_runtime.h"
#include "sim/policy/shared_claims.h"

namespace migsim {

class SharedClaimBooks {
 public:
  struct Book {
    std::vector<NodeRuntime::Held> devices;  // while allocated: one tenant of each
    uint32_t reserved_for = 0;  // pods bound or reserved that use it (status.reservedFor)
    uint32_t mig_created = 0;   // DynamicMIG instances its allocation created
    SimTime ready;              // when they exist (Pod::claim_ready)
    SimTime allocated_at;       // while allocated: since when
    double gpus = 0;            // while allocated: the GPUs its devices are (GpusHeld)
    int32_t namespace_index = 0;  // of the pod that allocated it
    double gpu_seconds = 0;       // of its allocations ended so far
  };

  explicit SharedClaimBooks(std::vector<dra::SharedClaim> claims);
  SharedClaimBooks(const SharedClaimBooks&) = delete;  // the states point into the claims
  SharedClaimBooks& operator=(const SharedClaimBooks&) = delete;

  size_t size() const { return claims_.size(); }
  const dra::SharedClaim& claim(dra::SharedClaimId id) const { return claims_[id.value()]; }
  SharedClaimState& state(dra::SharedClaimId id) { return states_[id.value()]; }
  std::span<const SharedClaimState> states() const { return states_; }
  Book& book(dra::SharedClaimId id) { return books_[id.value()]; }
  const Book& book(dra::SharedClaimId id) const { return books_[id.value()]; }
  // The GPU time the claims held (their devices' GPUs x the time allocated, up to `now` for
  // a claim still allocated), in GPU-hours, by the namespace of the pod that allocated each.
  std::vector<double> GpuHours(size_t namespaces, SimTime now) const;

 private:
  std::vector<dra::SharedClaim> claims_;
  std::vector<SharedClaimState> states_;
  std::vector<Book> books_;
};

}  // namespace migsim
