// KueueAdmission without an engine: quotas, borrowing, lending, queueing strategies,
// preemption and fair sharing, on GPU counts.
#include "sim/controllers/kueue/kueue_admission.h"

#include <catch2/catch.hpp>

namespace migsim {
namespace {

// One resource (nvidia.com/gpu), one flavor; queues added with their GPU quota.
struct Kueue {
  KueueSpec spec{.resources = {"nvidia.com/gpu"},
                 .flavors = {{"a100", {}}},
                 .cluster_queues = {},
                 .local_queues = {},
                 .fair_sharing = false,
                 .flavored_templates = {}};

  int32_t Queue(std::string name, int64_t nominal, std::string cohort = "",
                std::optional<int64_t> borrowing = std::nullopt,
                std::optional<int64_t> lending = std::nullopt) {
    ClusterQueueSpec cq;
    cq.name = std::move(name);
    cq.cohort = std::move(cohort);
    cq.groups = {{{0}, {{0, {{nominal, borrowing, lending}}}}}};
    spec.cluster_queues.push_back(std::move(cq));
    return static_cast<int32_t>(spec.cluster_queues.size() - 1);
  }
  ClusterQueueSpec& operator[](int32_t cq) { return spec.cluster_queues[cq]; }
};

WorkloadRequest Gpus(int32_t cq, int64_t gpus, int32_t priority = 0) {
  return {.cluster_queue = cq, .priority = priority, .request = {gpus}};
}

using State = WorkloadRecord::State;

using Seq = std::vector<std::string>;

// "+id" for each admission and "-id" for each eviction of one Admit call, in order.
Seq Decisions(KueueAdmission& k, double at) {
  Seq out;
  for (const KueueDecision& d : k.Admit(SimTime::Seconds(at))) {
    out.push_back((d.admitted ? "+" : "-") + std::to_string(d.workload.value()));
  }
  return out;
}

TEST_CASE("a workload is admitted whole when its queue's quota holds it", "[kueue]") {
  Kueue k;
  const int32_t q = k.Queue("team", 8);
  KueueAdmission a(k.spec);
  a.Add(Gpus(q, 4), SimTime::Zero());
  a.Add(Gpus(q, 4), SimTime::Zero());
  a.Add(Gpus(q, 4), SimTime::Zero());
  CHECK(Decisions(a, 0) == Seq{"+0", "+1"});
  CHECK(a.workload(WorkloadId(2)).state == State::kPending);
  CHECK(a.quota().Usage(q, 0) == 8);
  a.Finish(WorkloadId(0), SimTime::Seconds(10));
  CHECK(a.dirty());
  CHECK(Decisions(a, 10) == Seq{"+2"});
  CHECK(*a.workload(WorkloadId(2)).first_admitted == SimTime::Seconds(10));
}

TEST_CASE("a queue borrows a cohort's idle quota up to its borrowingLimit", "[kueue]") {
  Kueue k;
  const int32_t a = k.Queue("a", 8, "research", 4);
  const int32_t b = k.Queue("b", 8, "research");
  KueueAdmission adm(k.spec);
  adm.Add(Gpus(a, 8), SimTime::Zero());
  adm.Add(Gpus(a, 4), SimTime::Zero());
  adm.Add(Gpus(a, 2), SimTime::Zero());
  CHECK(Decisions(adm, 0) == Seq{"+0", "+1"});
  CHECK(adm.quota().Borrowed(a, 0) == 4);
  CHECK(adm.quota().Available(a, 0) == 0);
  CHECK(adm.quota().Available(b, 0) == 4);
  CHECK(adm.borrowed_gpus(a).back() == std::pair(SimTime::Zero(), int64_t{4}));
}

TEST_CASE("a queue lends no more than its lendingLimit", "[kueue]") {
  Kueue k;
  const int32_t a = k.Queue("a", 4, "research");
  const int32_t b = k.Queue("b", 8, "research", std::nullopt, 2);
  KueueAdmission adm(k.spec);
  CHECK(adm.quota().Capacity(a, 0) == 6);
  CHECK(adm.quota().Capacity(b, 0) == 12);
  adm.Add(Gpus(a, 7), SimTime::Zero());
  adm.Add(Gpus(a, 6), SimTime::Zero());
  CHECK(Decisions(adm, 0) == Seq{"+1"});
  CHECK(adm.quota().Available(b, 0) == 6);
}

TEST_CASE("StrictFIFO holds the queue behind a head that does not fit, BestEffortFIFO does not",
          "[kueue]") {
  for (QueueingStrategy strategy :
       {QueueingStrategy::kStrictFifo, QueueingStrategy::kBestEffortFifo}) {
    Kueue k;
    const int32_t q = k.Queue("team", 8);
    k[q].strategy = strategy;
    KueueAdmission a(k.spec);
    a.Add(Gpus(q, 6), SimTime::Zero());
    a.Add(Gpus(q, 4), SimTime::Seconds(1));
    a.Add(Gpus(q, 2), SimTime::Seconds(2));
    const bool strict = strategy == QueueingStrategy::kStrictFifo;
    CHECK(Decisions(a, 2) == (strict ? Seq{"+0"} : Seq{"+0", "+2"}));
  }
}

TEST_CASE("a queue orders its workloads by priority, then creation", "[kueue]") {
  Kueue k;
  const int32_t q = k.Queue("team", 2);
  KueueAdmission a(k.spec);
  a.Add(Gpus(q, 2, 0), SimTime::Zero());
  a.Add(Gpus(q, 2, 0), SimTime::Zero());
  a.Add(Gpus(q, 2, 100), SimTime::Seconds(1));
  CHECK(Decisions(a, 1) == Seq{"+2"});
  a.Finish(WorkloadId(2), SimTime::Seconds(2));
  CHECK(Decisions(a, 2) == Seq{"+0"});
}

TEST_CASE("withinClusterQueue evicts lower priorities, or also newer equal ones", "[kueue]") {
  auto run = [](WithinClusterQueue policy, int32_t second_priority) {
    Kueue k;
    const int32_t q = k.Queue("team", 8);
    k[q].within_cluster_queue = policy;
    KueueAdmission a(k.spec);
    a.Add(Gpus(q, 6, 10), SimTime::Seconds(5));
    CHECK(Decisions(a, 5) == Seq{"+0"});
    a.Add(Gpus(q, 6, second_priority), SimTime::Seconds(1));  // created earlier
    return Decisions(a, 6);
  };
  CHECK(run(WithinClusterQueue::kNever, 100).empty());
  CHECK(run(WithinClusterQueue::kLowerPriority, 100) == Seq{"-0", "+1"});
  CHECK(run(WithinClusterQueue::kLowerPriority, 10).empty());
  CHECK(run(WithinClusterQueue::kLowerOrNewerEqualPriority, 10) == Seq{"-0", "+1"});
  CHECK(run(WithinClusterQueue::kLowerOrNewerEqualPriority, 5).empty());
}

TEST_CASE("preemption evicts the fewest workloads, most recently admitted first", "[kueue]") {
  Kueue k;
  const int32_t q = k.Queue("team", 8);
  k[q].within_cluster_queue = WithinClusterQueue::kLowerPriority;
  KueueAdmission a(k.spec);
  for (int i = 0; i < 4; ++i) a.Add(Gpus(q, 2), SimTime::Seconds(i));
  CHECK(Decisions(a, 3) == Seq{"+0", "+1", "+2", "+3"});
  a.Add(Gpus(q, 3, 1), SimTime::Seconds(4));
  CHECK(Decisions(a, 4) == Seq{"-3", "-2", "+4"});
  CHECK(a.workload(WorkloadId(3)).evictions == 1);
  CHECK(a.workload(WorkloadId(3)).state == State::kPending);
  CHECK(a.quota().Usage(q, 0) == 7);
}

TEST_CASE("reclaimWithinCohort takes back lent quota from a borrowing queue", "[kueue]") {
  auto run = [](ReclaimWithinCohort reclaim) {
    Kueue k;
    const int32_t a = k.Queue("a", 8, "research");
    const int32_t b = k.Queue("b", 8, "research");
    k[b].reclaim_within_cohort = reclaim;
    KueueAdmission adm(k.spec);
    adm.Add(Gpus(a, 8), SimTime::Zero());
    adm.Add(Gpus(a, 8, 50), SimTime::Zero());
    CHECK(Decisions(adm, 0) == Seq{"+1", "+0"});
    CHECK(adm.quota().Borrowed(a, 0) == 8);
    adm.Add(Gpus(b, 4), SimTime::Seconds(1));
    return Decisions(adm, 1);
  };
  CHECK(run(ReclaimWithinCohort::kNever).empty());
  CHECK(run(ReclaimWithinCohort::kLowerPriority).empty());  // both a's are not lower
  // The most recently admitted of a's lowest priority goes: workload 0.
  CHECK(run(ReclaimWithinCohort::kAny) == Seq{"-0", "+2"});
}

TEST_CASE("a queue does not reclaim while it would itself borrow", "[kueue]") {
  Kueue k;
  const int32_t a = k.Queue("a", 8, "research");
  const int32_t b = k.Queue("b", 2, "research");
  k[b].reclaim_within_cohort = ReclaimWithinCohort::kAny;
  KueueAdmission adm(k.spec);
  adm.Add(Gpus(a, 9), SimTime::Zero());
  CHECK(Decisions(adm, 0) == Seq{"+0"});
  adm.Add(Gpus(b, 4), SimTime::Seconds(1));  // beyond b's nominal 2
  CHECK(Decisions(adm, 1).empty());
}

// Fair sharing on; queues a and b (no quota of their own) and a lender of `gpus` in a cohort.
Kueue FairCohort(int64_t gpus) {
  Kueue k;
  k.spec.fair_sharing = true;
  k.Queue("a", 0, "research");
  k.Queue("b", 0, "research");
  k.Queue("lender", gpus, "research");
  return k;
}

TEST_CASE("fair sharing splits a lender's idle quota by the borrowers' weights", "[kueue]") {
  Kueue k = FairCohort(12);
  const int32_t a = 0, b = 1;
  k[a].fair_sharing_weight = 2;
  KueueAdmission adm(k.spec);
  for (int i = 0; i < 12; ++i) {
    adm.Add(Gpus(a, 1), SimTime::Seconds(i));
    adm.Add(Gpus(b, 1), SimTime::Zero());  // b's are older: without weights b would lead
  }
  CHECK(Decisions(adm, 12).size() == 12);
  CHECK(adm.quota().Usage(a, 0) == 8);
  CHECK(adm.quota().Usage(b, 0) == 4);
  CHECK(adm.quota().Share(a) == Approx(adm.quota().Share(b)));
}

TEST_CASE("fair sharing preempts the queue whose share stays the larger", "[kueue]") {
  Kueue k = FairCohort(8);
  const int32_t a = 0, b = 1;
  k[b].reclaim_within_cohort = ReclaimWithinCohort::kAny;
  KueueAdmission adm(k.spec);
  for (int i = 0; i < 8; ++i) adm.Add(Gpus(a, 1), SimTime::Zero());
  CHECK(Decisions(adm, 0).size() == 8);
  for (int i = 0; i < 8; ++i) adm.Add(Gpus(b, 1), SimTime::Seconds(1));
  adm.Admit(SimTime::Seconds(1));
  CHECK(adm.quota().Usage(a, 0) == 4);
  CHECK(adm.quota().Usage(b, 0) == 4);
}

TEST_CASE("released quota returns the books to zero", "[kueue]") {
  Kueue k;
  const int32_t a = k.Queue("a", 4, "c");
  const int32_t b = k.Queue("b", 4, "c");
  k[b].reclaim_within_cohort = ReclaimWithinCohort::kAny;
  k[a].within_cluster_queue = WithinClusterQueue::kLowerPriority;
  KueueAdmission adm(k.spec);
  std::vector<WorkloadId> ids;
  for (int i = 0; i < 10; ++i) {
    ids.push_back(adm.Add(Gpus(i % 2 ? a : b, 1 + i % 3, i % 4), SimTime::Seconds(i)));
    adm.Admit(SimTime::Seconds(i));
  }
  for (int round = 0; round < 20; ++round) {
    for (WorkloadId id : ids) {
      if (adm.workload(id).state == State::kAdmitted) {
        adm.Finish(id, SimTime::Seconds(20 + round));
        break;
      }
    }
    adm.Admit(SimTime::Seconds(20 + round));
  }
  for (WorkloadId id : ids) CHECK(adm.workload(id).state == State::kFinished);
  CHECK(adm.quota().Usage(a, 0) == 0);
  CHECK(adm.quota().Usage(b, 0) == 0);
  CHECK(adm.borrowed_gpus(a).back().second == 0);
}

}  // namespace
}  // namespace migsim
