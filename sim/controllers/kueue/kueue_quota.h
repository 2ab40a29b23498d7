#pragma once
// The quota books of Kueue's ClusterQueues: nominal quotas, borrowing and lending limits,
// and what each queue uses, per (flavor, resource). Pure arithmetic over KueueSpec, no
// engine: what KueueAdmission asks before admitting or preempting.
//
// What a queue may still take follows Kueue's resource tree (pkg/cache, `available`):
// a queue keeps its guaranteed quota (nominal − lendingLimit) to itself and puts the rest
// into its cohort; the cohort's capacity is the sum of its members' lendable quotas, its
// usage the sum of what each member uses beyond its guaranteed quota. A queue may take
// its unused guaranteed quota plus what the cohort has left, the latter capped by its
// borrowingLimit (lendable quota + borrowingLimit − what it already uses in the cohort).

#include <cstdint>
#include <span>
#include <vector>

#include "sim/engine/kueue_spec.h"

namespace migsim {

class QuotaBook {
 public:
  // REQUIRES: `spec` is valid (the loader's checks) and outlives the book.
  explicit QuotaBook(const KueueSpec& spec);

  // The flat index of (flavor, resource).
  size_t Index(int32_t flavor, int32_t resource) const {
    return static_cast<size_t>(flavor) * resources_ + static_cast<size_t>(resource);
  }
  size_t size() const { return flavors_ * resources_; }

  // What cluster queue `cq` may still take of `fr` now (0 when it has no quota there).
  int64_t Available(int32_t cq, size_t fr) const;
  // Available with every queue empty: the most one workload could ever get.
  int64_t Capacity(int32_t cq, size_t fr) const;
  bool Covers(int32_t cq, size_t fr) const { return quotas_[cq][fr].has_value(); }
  int64_t Nominal(int32_t cq, size_t fr) const {
    return Covers(cq, fr) ? quotas_[cq][fr]->nominal : 0;
  }
  int64_t Usage(int32_t cq, size_t fr) const { return usage_[cq][fr]; }
  // Usage beyond the nominal quota.
  int64_t Borrowed(int32_t cq, size_t fr) const;
  // Adds `amount` (negative to release) to what `cq` uses of `fr`.
  void Use(int32_t cq, size_t fr, int64_t amount) { usage_[cq][fr] += amount; }
  int32_t cohort(int32_t cq) const { return cohort_of_[cq]; }
  std::span<const int32_t> members(int32_t cohort) const { return members_[cohort]; }

  // Kueue's dominant resource share (fair sharing) of `cq` were it to use `extra` (by
  // flat index; empty: nothing) on top of what it uses: the largest, over resources, of
  // what it borrows of the resource (summed over flavors) / what its cohort can lend of
  // it, divided by its fairSharing weight. 0 outside a cohort; +inf for a weight of 0.
  double Share(int32_t cq, std::span<const int64_t> extra = {}) const;

 private:
  int64_t Guaranteed(int32_t cq, size_t fr) const;
  int64_t Lendable(int32_t cq, size_t fr) const;  // put into the cohort
  int64_t CohortQuota(int32_t cohort, size_t fr) const;
  int64_t CohortUsage(int32_t cohort, size_t fr) const;

  const KueueSpec* spec_;
  size_t flavors_, resources_;
  std::vector<std::vector<std::optional<ResourceQuota>>> quotas_;  // [cq][fr]
  std::vector<std::vector<int64_t>> usage_;                        // [cq][fr]
  std::vector<int32_t> cohort_of_;                                 // -1: none
  std::vector<std::vector<int32_t>> members_;                      // by cohort
};

}  // namespace migsim
