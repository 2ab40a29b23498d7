#pragma once
// Kueue's admission (scheduling.md §4), over plain data: workloads wait in their
// ClusterQueue, ordered by priority then creation; a workload is admitted whole when its
// request fits its queue's quota (KueueSpec, QuotaBook), possibly after evicting admitted
// workloads; its quota is held until it finishes. No engine: tests drive it with
// requests and read its decisions.
//
// One Admit call is what Kueue's scheduler does in as many cycles as it needs at one
// instant: each cycle takes every queue's head — StrictFIFO: the first pending workload;
// BestEffortFIFO: the first not found inadmissible — orders the heads (without fair sharing:
// those that do not borrow first, then priority, then creation; with it: the smaller
// dominant resource share once admitted first) and admits the first that fits; when none
// fits, the first whose preemption finds victims evicts them and is admitted; when none
// can, every head is set aside (BestEffortFIFO: the next workload becomes the head;
// StrictFIFO: the queue waits) until quota is released in its cohort.
//
// Flavors (Kueue's default flavorFungibility, whenCanBorrow: Borrow, whenCanPreempt:
// TryNextFlavor): per resource group, the first flavor in which the whole request fits,
// borrowing if need be; when none fits, the first whose quota could ever hold it, for
// preemption.
//
// Preemption (Kueue's documented algorithm): candidates are admitted workloads of the
// same queue allowed by withinClusterQueue (LowerPriority: lower priority;
// LowerOrNewerEqualPriority: also equal priority and created later) and, with
// reclaimWithinCohort, workloads of other queues of the cohort that borrow what the
// preemptor needs (LowerPriority: of lower priority; Any: any). Other queues' workloads go
// first, then lower priority, then the most recently admitted. Candidates are removed in
// that order until the workload fits — taking back lent quota only while the preemptor
// stays within its nominal quota and only from queues still borrowing; otherwise from its
// own queue only, borrowing allowed — then put back from the last but one while it still
// fits. With fair sharing, candidates are taken from the queue with the largest share, and
// another queue's workload only when the preemptor's share once admitted is at most that
// queue's share after the eviction (LessThanOrEqualToFinalShare), or else below its share
// before (LessThanInitialShare). Evicted workloads go back to their queue.

#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/controllers/kueue/kueue_quota.h"
#include "sim/engine/kueue_spec.h"

namespace migsim {

struct WorkloadRequest {
  int32_t cluster_queue = 0;
  int32_t priority = 0;
  std::vector<int64_t> request{};  // the whole workload's, by KueueSpec::resources index
};

// What happens to a workload: admitted (with its flavors) or evicted.
struct KueueDecision {
  WorkloadId workload;
  bool admitted = false;
  std::vector<int32_t> flavors;  // admitted: one per resource group of its queue, -1 if unused
};

struct WorkloadRecord {
  enum class State : uint8_t { kPending, kAdmitted, kFinished };
  WorkloadRequest request{};
  SimTime created{};
  State state = State::kPending;
  std::optional<SimTime> first_admitted{};
  SimTime admitted_at{};  // the latest admission: later admissions are evicted first
  int32_t evictions = 0;
  std::vector<int32_t> flavors{};  // while admitted
  bool inadmissible = false;       // BestEffortFIFO: set aside until quota is released
};

class KueueAdmission {
 public:
  // REQUIRES: `spec` is valid and outlives this object.
  explicit KueueAdmission(const KueueSpec& spec);

  // A new pending workload. REQUIRES: request sized spec.resources, queue in range.
  WorkloadId Add(WorkloadRequest request, SimTime now);
  // The workload is done (its quota, if admitted, is released) or withdrawn while pending.
  void Finish(WorkloadId id, SimTime now);
  // Admits (and evicts) what Kueue would at `now`, in order; evictions come before the
  // admission they make room for.
  std::vector<KueueDecision> Admit(SimTime now);
  // True when Add or Finish happened since the last Admit.
  bool dirty() const { return dirty_; }

  const WorkloadRecord& workload(WorkloadId id) const { return workloads_[id.value()]; }
  size_t workload_count() const { return workloads_.size(); }
  const QuotaBook& quota() const { return quota_; }
  const KueueSpec& spec() const { return *spec_; }
  // By queue: (time, nvidia.com/gpu borrowed beyond nominal, over flavors) at each change,
  // starting with (0, 0).
  const std::vector<std::pair<SimTime, int64_t>>& borrowed_gpus(int32_t cq) const {
    return borrowed_gpus_[cq];
  }

 private:
  struct Head {
    WorkloadId workload;
    int32_t cq = 0;
    std::vector<int32_t> flavors{};
    bool fits = false;
    bool borrows = false;
    double share = 0;
  };
  struct QueueOrder {
    const std::vector<WorkloadRecord>* workloads;
    bool operator()(WorkloadId a, WorkloadId b) const;
  };

  std::optional<WorkloadId> HeadOf(int32_t cq) const;
  Head Assign(WorkloadId id, int32_t cq) const;
  bool Before(const Head& a, const Head& b) const;
  // (flat flavor-resource index, amount) of the workload's request under `flavors`.
  std::vector<std::pair<size_t, int64_t>> Usage(const WorkloadRecord& w,
                                                const std::vector<int32_t>& flavors) const;
  bool Fits(const Head& head, bool allow_borrowing) const;
  void Take(WorkloadId id, const std::vector<int32_t>& flavors, int64_t sign);
  void AdmitHead(const Head& head, SimTime now, std::vector<KueueDecision>& out);
  void Evict(WorkloadId id, std::vector<KueueDecision>& out);
  void SetAside(const Head& head);
  void QuotaReleased(int32_t cq);
  void RecordBorrowed(SimTime now);

  // Preemption (kueue_preemption.cc): the victims that let `head` in, or empty.
  // They try removals on the books and undo them before returning.
  std::vector<WorkloadId> Victims(const Head& head);
  std::vector<WorkloadId> Candidates(const Head& head, bool same_queue) const;
  std::vector<WorkloadId> Minimal(const Head& head, const std::vector<WorkloadId>& candidates,
                                  bool allow_borrowing);
  std::vector<WorkloadId> FairVictims(const Head& head, const std::vector<WorkloadId>& candidates,
                                      bool final_share);
  std::vector<WorkloadId> PutBack(const Head& head, std::vector<WorkloadId> removed,
                                  bool allow_borrowing);
  bool Borrows(int32_t cq, const std::vector<std::pair<size_t, int64_t>>& need) const;

  const KueueSpec* spec_;
  QuotaBook quota_;
  std::vector<WorkloadRecord> workloads_;
  std::vector<std::set<WorkloadId, QueueOrder>> pending_;  // by queue
  std::vector<std::vector<WorkloadId>> admitted_;          // by queue, in admission order
  std::vector<std::optional<WorkloadId>> strict_blocked_;  // StrictFIFO head set aside
  std::vector<std::vector<std::pair<SimTime, int64_t>>> borrowed_gpus_;
  int32_t gpu_resource_ = -1;  // index of nvidia.com/gpu in spec.resources
  bool dirty_ = false;
};

}  // namespace migsim
