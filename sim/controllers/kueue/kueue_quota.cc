#include "sim/controllers/kueue/kueue_quota.h"

#include <algorithm>
#include <limits>

namespace migsim {

QuotaBook::QuotaBook(const KueueSpec& spec)
    : spec_(&spec), flavors_(spec.flavors.size()), resources_(spec.resources.size()) {
  std::vector<std::string> cohorts;
  for (size_t c = 0; c < spec.cluster_queues.size(); ++c) {
    const ClusterQueueSpec& cq = spec.cluster_queues[c];
    std::vector<std::optional<ResourceQuota>> quotas(size());
    for (const ResourceGroup& group : cq.groups) {
      for (const FlavorQuotas& flavor : group.flavors) {
        for (size_t i = 0; i < group.covered.size(); ++i) {
          quotas[Index(flavor.flavor, group.covered[i])] = flavor.quotas[i];
        }
      }
    }
    quotas_.push_back(std::move(quotas));
    usage_.emplace_back(size(), 0);
    int32_t cohort = -1;
    if (!cq.cohort.empty()) {
      auto it = std::find(cohorts.begin(), cohorts.end(), cq.cohort);
      cohort = static_cast<int32_t>(it - cohorts.begin());
      if (it == cohorts.end()) {
        cohorts.push_back(cq.cohort);
        members_.emplace_back();
      }
      members_[cohort].push_back(static_cast<int32_t>(c));
    }
    cohort_of_.push_back(cohort);
  }
}

int64_t QuotaBook::Guaranteed(int32_t cq, size_t fr) const {
  const std::optional<ResourceQuota>& q = quotas_[cq][fr];
  if (!q || !q->lending_limit) return 0;
  return std::max<int64_t>(0, q->nominal - *q->lending_limit);
}

int64_t QuotaBook::Lendable(int32_t cq, size_t fr) const {
  return Nominal(cq, fr) - Guaranteed(cq, fr);
}

int64_t QuotaBook::CohortQuota(int32_t cohort, size_t fr) const {
  int64_t sum = 0;
  for (int32_t m : members_[cohort]) sum += Lendable(m, fr);
  return sum;
}

int64_t QuotaBook::CohortUsage(int32_t cohort, size_t fr) const {
  int64_t sum = 0;
  for (int32_t m : members_[cohort]) sum += std::max<int64_t>(0, usage_[m][fr] - Guaranteed(m, fr));
  return sum;
}

int64_t QuotaBook::Available(int32_t cq, size_t fr) const {
  if (!Covers(cq, fr)) return 0;
  const int64_t usage = usage_[cq][fr];
  const int32_t cohort = cohort_of_[cq];
  if (cohort < 0) return Nominal(cq, fr) - usage;
  const int64_t guaranteed = Guaranteed(cq, fr);
  const int64_t local = std::max<int64_t>(0, guaranteed - usage);
  int64_t parent = CohortQuota(cohort, fr) - CohortUsage(cohort, fr);
  if (const std::optional<int64_t>& limit = quotas_[cq][fr]->borrowing_limit) {
    const int64_t used_in_parent = std::max<int64_t>(0, usage - guaranteed);
    parent = std::min(parent, Lendable(cq, fr) - used_in_parent + *limit);
  }
  return local + parent;
}

int64_t QuotaBook::Capacity(int32_t cq, size_t fr) const {
  if (!Covers(cq, fr)) return 0;
  const int32_t cohort = cohort_of_[cq];
  if (cohort < 0) return Nominal(cq, fr);
  int64_t parent = CohortQuota(cohort, fr);
  if (const std::optional<int64_t>& limit = quotas_[cq][fr]->borrowing_limit) {
    parent = std::min(parent, Lendable(cq, fr) + *limit);
  }
  return Guaranteed(cq, fr) + parent;
}

int64_t QuotaBook::Borrowed(int32_t cq, size_t fr) const {
  return std::max<int64_t>(0, usage_[cq][fr] - Nominal(cq, fr));
}

// Kueue (pkg/cache/fair_sharing.go): borrowing per resource name, summed over flavors,
// against the cohort's lendable quota of that resource.
double QuotaBook::Share(int32_t cq, std::span<const int64_t> extra) const {
  const int32_t cohort = cohort_of_[cq];
  if (cohort < 0) return 0;
  const double weight = spec_->cluster_queues[cq].fair_sharing_weight;
  if (weight <= 0) return std::numeric_limits<double>::infinity();
  double dominant = 0;
  for (size_t r = 0; r < resources_; ++r) {
    int64_t borrowed = 0, lendable = 0;
    for (size_t f = 0; f < flavors_; ++f) {
      const size_t fr = Index(static_cast<int32_t>(f), static_cast<int32_t>(r));
      lendable += CohortQuota(cohort, fr);
      if (!Covers(cq, fr)) continue;
      const int64_t use = usage_[cq][fr] + (extra.empty() ? 0 : extra[fr]);
      borrowed += std::max<int64_t>(0, use - Nominal(cq, fr));
    }
    if (lendable > 0) dominant = std::max(dominant, static_cast<double>(borrowed) / lendable);
  }
  return dominant / weight;
}

}  // namespace migsim
