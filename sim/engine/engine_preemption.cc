// Preemption: kube-scheduler's DefaultPreemption PostFilter (docs/scheduling.md §2) as the
// engine applies it — candidates, victims and the node chosen by preemption.h; victims
// evicted gracefully; the preemptor nominated, its nominated node's resources held
// against lower priorities until it binds.

#include <algorithm>
#include <cmath>

#include "sim/core/check.h"
#include "sim/engine/engine.h"
#include "sim/engine/preemption.h"

namespace migsim {

namespace {

// Failures eviction cannot fix: the node is cordoned or being repartitioned, or its
// labels do not match the pod's selector or affinity.
bool EvictionCouldHelp(const PodView& pod, const NodeInfo& node) {
  return !node.mig_pending && ClusterView::Admits(pod, node);
}

}  // namespace

void Engine::Preempt(Pod& pod, const PodView& view) {
  // No pod of the run has a lower priority, and no discipline ranks pods otherwise: nothing
  // could be evicted (most scenarios).
  if (!preemptive_order_ && view.priority <= lowest_priority_) return;
  // Preemption's dry run frees extended resources, not DRA devices: not modelled for claims.
  if (view.has_claims() || view.shared_claim_ids != nullptr) return;
  if (!templates_[pod.tmpl.value()].preempts || !EligibleToPreempt(pod)) return;
  PodView ranked = view;  // a preemptive queue discipline's rank stands for the priority
  ranked.priority = Rank(pod);
  const std::vector<NodeVictims> candidates = FindCandidates(ranked);
  if (candidates.empty()) {
    ClearNomination(pod);
    return;
  }
  const NodeVictims& chosen = PickPreemptionNode(candidates);
  for (PodId victim : chosen.victims) Evict(pods_[victim.value()]);
  if (!pod.nominated.valid()) nominated_pods_.push_back(pod.id);
  pod.nominated = chosen.node;
}

// PodEligibleToPreemptOthers: a pod that already preempted waits while lower-priority
// pods on its nominated node are still terminating, instead of evicting more.
bool Engine::EligibleToPreempt(const Pod& pod) const {
  if (!pod.nominated.valid()) return true;
  const int32_t priority = Rank(pod);
  for (const BoundPod& bound : node_info_[pod.nominated.value()].pods) {
    const Pod& other = pods_[bound.id.value()];
    if (other.terminating && Rank(other) < priority) return false;
  }
  return true;
}

// DryRunPreemption: from a random node on (kube-scheduler spreads preemptions that way),
// up to PreemptionCandidateLimit nodes where evicting lower-priority pods makes room.
std::vector<NodeVictims> Engine::FindCandidates(const PodView& view, size_t at_least) {
  const size_t n = node_info_.size();
  std::vector<NodeVictims> found;
  if (n == 0) return found;
  const size_t limit = std::max(PreemptionCandidateLimit(n), at_least);
  const size_t offset = preemption_rng_.Below(n);
  const std::vector<int32_t> allowed = budgets_.Allowed();
  for (size_t i = 0; i < n && found.size() < limit; ++i) {
    const NodeInfo& info = node_info_[(offset + i) % n];
    if (!EvictionCouldHelp(view, info) || !LowerPodsFreeEnough(info, view)) continue;
    std::vector<PotentialVictim> lower = LowerPriorityPods(info, view.priority);
    std::optional<NodeVictims> victims =
        SelectVictims(info.id, info, std::move(lower), allowed, *view.requests);
    if (victims) found.push_back(std::move(*victims));
  }
  return found;
}

// Whether the pod's requests fit the node's counters with every lower-priority pod gone:
// what SelectVictims checks first, without copying anything, so that the many nodes where
// eviction cannot make room cost one pass over their pods.
bool Engine::LowerPodsFreeEnough(const NodeInfo& info, const PodView& view) const {
  const PodRequests& want = *view.requests;
  int64_t cpu = info.cpu_milli_requested, memory = info.memory_mib_requested;
  std::vector<int64_t>& taken = scratch_taken_;
  taken.assign(want.extended.size(), 0);
  for (size_t k = 0; k < want.extended.size(); ++k) {
    taken[k] = info.Requested(want.extended[k].resource);
  }
  for (const BoundPod& bound : info.pods) {
    const Pod& pod = pods_[bound.id.value()];
    if (pod.terminating || pod.reserved || Rank(pod) >= view.priority) continue;
    cpu -= bound.requests->cpu_milli;
    memory -= bound.requests->memory_mib;
    for (const ResourceRequest& held : bound.requests->extended) {
      for (size_t k = 0; k < want.extended.size(); ++k) {
        if (want.extended[k].resource == held.resource) taken[k] -= held.count;
      }
    }
  }
  for (size_t k = 0; k < want.extended.size(); ++k) {
    if (taken[k] + want.extended[k].count > info.Allocatable(want.extended[k].resource)) {
      return false;
    }
  }
  return cpu + want.cpu_milli <= info.cpu_milli_allocatable &&
         memory + want.memory_mib <= info.memory_mib_allocatable;
}

std::vector<PotentialVictim> Engine::LowerPriorityPods(const NodeInfo& info,
                                                       int32_t priority) const {
  std::vector<PotentialVictim> lower;
  for (const BoundPod& bound : info.pods) {
    const Pod& pod = pods_[bound.id.value()];
    const PodTemplate& t = templates_[pod.tmpl.value()];
    // A gang pod waiting in Permit holds the node but is not bound: its reservation ends
    // by itself (timeout), so it is not a victim.
    const int32_t rank = Rank(pod);
    if (pod.terminating || pod.reserved || rank >= priority) continue;
    // Its status.startTime, which GetPodStartTime reads: set when the kubelet first
    // acknowledges the pod, before its images are pulled, so its bind, not its start.
    lower.push_back({.pod = pod.id,
                     .priority = rank,
                     .started = pod.bound,
                     .requests = &t.requests,
                     .devices = DevicesOf(pod),
                     .budgets = budgets_.OfInPreemption(pod.tmpl)});
  }
  return lower;
}

// The victim ends Failed with reason Preempted after its grace period and goes back to its
// controller; its gang, if any, loses the attempt.
void Engine::Evict(Pod& victim) {
  ++counters_.preemptions;
  RecordAttained(victim);  // before it stops running: it reads the run so far
  if (victim.gang.valid()) LoseAttempt(gangs_[victim.gang.value()], EndReason::kPreempted);
  const SimTime end = now_ + templates_[victim.tmpl.value()].termination_grace;
  Terminate(victim, end, EndReason::kPreempted, LossBook::kPreemption);
  for (EngineObserver* o : observers_) o->OnPodPreempted(now_, victim);
}

// Graceful termination: the pod stops computing at once (SIGTERM), keeps its node and
// devices until `end`, then ends (PodEnd) with `reason`, the kill counted by cause.
double Engine::Terminate(Pod& victim, SimTime end, EndReason reason, LossBook book) {
  MIGSIM_CHECK(victim.on_node() && !victim.terminating, "only a bound pod is killed, once");
  SetReady(victim, false);
  const double kept_s = SaveCheckpoint(victim);
  if (victim.phase == PodPhase::kRunning) {
    if (std::optional<uint32_t> shared = SharedDevice(victim)) {
      if (RemoveProcess(victim, *shared)) Reshare(victim.node, *shared);
    }
    if (SetBusyOfExclusiveDevices(victim, 0)) NotifyNodeGpuUse(victim.node.value());
  }
  victim.terminating = true;
  victim.ending = reason;
  victim.kill_end = end;
  victim.loss_book = book;
  ++counters_.killed[static_cast<size_t>(reason)];
  ++victim.generation;  // its start or its end no longer happens
  events_.Push(end, PodEnd{victim.id, victim.generation, reason});
  for (EngineObserver* o : observers_) o->OnPodKilled(now_, victim);
  const double lost = victim.gpus * std::max(0.0, (end - victim.bound).seconds() - kept_s);
  if (double* booked = LossBookOf(book)) *booked += lost;
  return lost;
}

double* Engine::LossBookOf(LossBook book) {
  switch (book) {
    case LossBook::kPreemption: return &counters_.preempted_gpu_seconds;
    case LossBook::kFaults: return &counters_.fault_gpu_seconds;
    case LossBook::kUnbooked: return nullptr;
  }
  return nullptr;
}

void Engine::EndNow(Pod& pod) {
  ++pod.generation;
  events_.Push(now_, PodEnd{pod.id, pod.generation, pod.ending});
}

// Sets victim.checkpoint, the fraction of the whole work its checkpoints kept, and returns
// the running time they cover. Checkpoints are taken every checkpoint_interval of running
// since the container started; a pod still starting, or without checkpoints, keeps only
// what it resumed from.
double Engine::SaveCheckpoint(Pod& victim) {
  victim.checkpoint = victim.resumed;
  const double kept_s = CheckpointedSeconds(victim, now_);
  if (kept_s <= 0) return 0;
  AdvanceProgress(victim);
  const double ran_s = (now_ - victim.started).seconds();
  // Progress is linear in time on an exclusive device; on a shared one this takes the
  // run's average speed.
  const double done = ran_s > 0 ? std::min(1.0, victim.progress * kept_s / ran_s) : 0.0;
  victim.checkpoint = victim.resumed + (1 - victim.resumed) * done;
  return kept_s;
}

double Engine::CheckpointedSeconds(const Pod& pod, SimTime at) const {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  if (pod.phase != PodPhase::kRunning || t.runs_forever || !t.job_class.valid()) return 0;
  const std::optional<SimTime> interval = job_classes_[t.job_class.value()].checkpoint_interval;
  if (!interval || interval->micros() <= 0 || at <= pod.started) return 0;
  const double ran_s = (at - pod.started).seconds();
  return std::floor(ran_s / interval->seconds()) * interval->seconds();
}

// The first kill of a member decides: the attempt is lost then, to that cause.
void Engine::LoseAttempt(Gang& gang, EndReason cause) {
  if (gang.attempt_lost_at) return;
  gang.attempt_lost_at = now_;
  gang.attempt_lost_to = cause;
}

// The other members of a killed pod's gang lose their work since their last checkpoint
// too: their controller deletes them, and the next attempt resumes from the checkpoint.
// Booked to preemption or to faults, as the kill that lost the attempt.
void Engine::BookLostAttempt(const Pod& member) {
  const Gang& gang = gangs_[member.gang.value()];
  const std::optional<SimTime> lost_at = gang.attempt_lost_at;
  if (!lost_at || !member.on_node() || member.terminating || member.bound > *lost_at) return;
  const double held_s = (now_ - member.bound).seconds();
  const double lost = member.gpus * std::max(0.0, held_s - CheckpointedSeconds(member, *lost_at));
  (gang.attempt_lost_to == EndReason::kPreempted ? counters_.preempted_gpu_seconds : counters_.fault_gpu_seconds) +=
      lost;
}

// A pod is healthy for its disruption budgets while it runs and is not being evicted.
void Engine::SetReady(Pod& pod, bool ready) {
  if (pod.ready == ready) return;
  pod.ready = ready;
  budgets_.AddHealthy(pod.tmpl, ready ? 1 : -1);
}

void Engine::ClearNomination(Pod& pod) {
  if (!pod.nominated.valid()) return;
  pod.nominated = NodeId::Invalid();
  nominated_pods_.erase(std::find(nominated_pods_.begin(), nominated_pods_.end(), pod.id));
}

// Nominated pods of at least `pod`'s priority hold their nominated nodes' resources
// against it (kube-scheduler adds them to the node before filtering). `sign` +1 books
// them and records which; -1 takes back exactly those.
void Engine::HoldNominated(const Pod& pod, int sign) {
  if (sign > 0) {
    held_nominations_.clear();
    const int32_t priority = Rank(pod);
    for (PodId id : nominated_pods_) {
      if (id != pod.id && Rank(pods_[id.value()]) >= priority) {
        held_nominations_.push_back(id);
      }
    }
  }
  for (PodId id : held_nominations_) {
    const Pod& other = pods_[id.value()];
    const PodRequests& r = templates_[other.tmpl.value()].requests;
    NodeInfo& info = node_info_[other.nominated.value()];
    info.cpu_milli_requested += sign * r.cpu_milli;
    info.memory_mib_requested += sign * r.memory_mib;
    for (const ResourceRequest& e : r.extended) {
      if (e.resource.value() < info.requested.size()) {
        info.requested[e.resource.value()] += sign * e.count;
      }
    }
    ++info.generation;
    NodeChanged(other.nominated.value());
  }
  if (sign < 0) held_nominations_.clear();
}

}  // namespace migsim
