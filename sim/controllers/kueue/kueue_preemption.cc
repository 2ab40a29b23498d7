// Kueue's preemption (the algorithm is stated in kueue_admission.h): which admitted
// workloads a head that does not fit may evict. Every function tries removals on the
// quota books and restores them before it returns.

#include <algorithm>
#include <map>

#include "sim/controllers/kueue/kueue_admission.h"

namespace migsim {

bool KueueAdmission::Borrows(int32_t cq,
                             const std::vector<std::pair<size_t, int64_t>>& need) const {
  return std::any_of(need.begin(), need.end(),
                     [&](const auto& n) { return quota_.Borrowed(cq, n.first) > 0; });
}

// The admitted workloads `head` may evict, in Kueue's order: other queues' first, then
// lower priority, then the most recently admitted.
std::vector<WorkloadId> KueueAdmission::Candidates(const Head& head, bool same_queue) const {
  const WorkloadRecord& w = workloads_[head.workload.value()];
  const ClusterQueueSpec& spec = spec_->cluster_queues[head.cq];
  const auto need = Usage(w, head.flavors);
  auto shares = [&](const WorkloadRecord& v) {
    for (const auto& [fr, amount] : Usage(v, v.flavors)) {
      for (const auto& n : need) {
        if (n.first == fr) return true;
      }
    }
    return false;
  };
  std::vector<WorkloadId> out;
  auto consider = [&](int32_t cq) {
    // Newest first: the order ties in admission time keep.
    for (auto it = admitted_[cq].rbegin(); it != admitted_[cq].rend(); ++it) {
      const WorkloadId id = *it;
      const WorkloadRecord& v = workloads_[id.value()];
      if (!shares(v)) continue;
      const int32_t p = v.request.priority, mine = w.request.priority;
      bool ok = false;
      if (cq == head.cq) {
        ok = (spec.within_cluster_queue != WithinClusterQueue::kNever && p < mine) ||
             (spec.within_cluster_queue == WithinClusterQueue::kLowerOrNewerEqualPriority &&
              p == mine && v.created > w.created);
      } else {
        ok = Borrows(cq, need) &&
             (spec.reclaim_within_cohort == ReclaimWithinCohort::kAny ||
              (spec.reclaim_within_cohort == ReclaimWithinCohort::kLowerPriority && p < mine));
      }
      if (ok) out.push_back(id);
    }
  };
  const int32_t cohort = quota_.cohort(head.cq);
  if (!same_queue && cohort >= 0) {
    for (int32_t m : quota_.members(cohort)) {
      if (m != head.cq) consider(m);
    }
  }
  consider(head.cq);
  std::stable_sort(out.begin(), out.end(), [&](WorkloadId a, WorkloadId b) {
    const WorkloadRecord& x = workloads_[a.value()];
    const WorkloadRecord& y = workloads_[b.value()];
    const bool xo = x.request.cluster_queue != head.cq, yo = y.request.cluster_queue != head.cq;
    if (xo != yo) return xo;
    if (x.request.priority != y.request.priority) return x.request.priority < y.request.priority;
    return x.admitted_at > y.admitted_at;
  });
  return out;
}

std::vector<WorkloadId> KueueAdmission::Victims(const Head& head) {
  const std::vector<WorkloadId> all = Candidates(head, false);
  if (all.empty()) return {};
  if (spec_->fair_sharing) {
    std::vector<WorkloadId> victims = FairVictims(head, all, true);
    return victims.empty() ? FairVictims(head, all, false) : victims;
  }
  const std::vector<WorkloadId> own = Candidates(head, true);
  if (own.size() == all.size()) return Minimal(head, own, true);
  std::vector<WorkloadId> victims = Minimal(head, all, false);
  return victims.empty() ? Minimal(head, own, true) : victims;
}

// Removes candidates in order until the head fits (another queue's only while that queue
// still borrows what the head needs), then keeps the fewest.
std::vector<WorkloadId> KueueAdmission::Minimal(const Head& head,
                                                const std::vector<WorkloadId>& candidates,
                                                bool allow_borrowing) {
  const auto need = Usage(workloads_[head.workload.value()], head.flavors);
  std::vector<WorkloadId> removed;
  bool fits = false;
  for (WorkloadId id : candidates) {
    const WorkloadRecord& v = workloads_[id.value()];
    if (v.request.cluster_queue != head.cq && !Borrows(v.request.cluster_queue, need)) continue;
    Take(id, v.flavors, -1);
    removed.push_back(id);
    fits = Fits(head, allow_borrowing);
    if (fits) break;
  }
  if (!fits) {
    for (WorkloadId id : removed) Take(id, workloads_[id.value()].flavors, 1);
    return {};
  }
  return PutBack(head, std::move(removed), allow_borrowing);
}

// REQUIRES: `removed` are off the books and the head fits. Puts back, from the last but
// one, every workload the head does not need gone; restores the books.
std::vector<WorkloadId> KueueAdmission::PutBack(const Head& head, std::vector<WorkloadId> removed,
                                                bool allow_borrowing) {
  for (size_t i = removed.size() - 1; i-- > 0;) {
    const WorkloadId id = removed[i];
    Take(id, workloads_[id.value()].flavors, 1);
    if (Fits(head, allow_borrowing)) {
      removed.erase(removed.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      Take(id, workloads_[id.value()].flavors, -1);
    }
  }
  for (WorkloadId id : removed) Take(id, workloads_[id.value()].flavors, 1);
  return removed;
}

// Kueue's fair preemption: take from the queue with the largest share; another queue's
// workload only if the strategy allows it (`final_share`: LessThanOrEqualToFinalShare,
// else LessThanInitialShare), else that queue is spared.
std::vector<WorkloadId> KueueAdmission::FairVictims(const Head& head,
                                                    const std::vector<WorkloadId>& candidates,
                                                    bool final_share) {
  const WorkloadRecord& w = workloads_[head.workload.value()];
  std::vector<int64_t> extra(quota_.size(), 0);
  for (const auto& [fr, amount] : Usage(w, head.flavors)) extra[fr] += amount;
  std::map<int32_t, std::vector<WorkloadId>> by_queue;  // candidates, in order, per queue
  for (WorkloadId id : candidates)
    by_queue[workloads_[id.value()].request.cluster_queue].push_back(id);
  std::vector<WorkloadId> removed;
  bool fits = false;
  while (!fits && !by_queue.empty()) {
    auto target = by_queue.begin();
    for (auto it = by_queue.begin(); it != by_queue.end(); ++it) {
      if (quota_.Share(it->first) > quota_.Share(target->first)) target = it;
    }
    const WorkloadId id = target->second.front();
    const std::vector<int32_t>& flavors = workloads_[id.value()].flavors;
    bool take = target->first == head.cq;
    if (!take) {
      const double before = quota_.Share(target->first);
      Take(id, flavors, -1);
      const double mine = quota_.Share(head.cq, extra), after = quota_.Share(target->first);
      Take(id, flavors, 1);
      take = final_share ? mine <= after : mine < before;
    }
    if (take) {
      Take(id, flavors, -1);
      removed.push_back(id);
      target->second.erase(target->second.begin());
      if (target->second.empty()) by_queue.erase(target);
      fits = Fits(head, true);
    } else {
      by_queue.erase(target);
    }
  }
  if (!fits) {
    for (WorkloadId id : removed) Take(id, workloads_[id.value()].flavors, 1);
    return {};
  }
  return PutBack(head, std::move(removed), true);
}

}  // namespace migsim
