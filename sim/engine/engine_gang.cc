// Gangs in the scheduling cycle: the Coscheduling plugin's QueueSort, PreFilter, Permit and
// PostFilter, and the schedule timeout (gang.h states the rules and our deviations).

#include <algorithm>
#include <map>
#include <string>

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {
namespace {

// PostFilter's threshold (coscheduling.go): when at most this fraction of minMember is
// still missing, the reservations are kept and the remaining pods tried later; with more
// missing, the plugin infers the rest would fail too and rejects the waiting pods at once.
constexpr double kSmallGap = 0.1;

// How many pods of `req` fit the node's free resources, at most `cap`: an upper bound (a
// resource taken per device may hold fewer).
int64_t FreeRoom(const PodRequests& req, const NodeInfo& node, int64_t cap) {
  int64_t most = cap;
  if (req.cpu_milli > 0) {
    most = std::min(most, (node.cpu_milli_allocatable - node.cpu_milli_requested) / req.cpu_milli);
  }
  if (req.memory_mib > 0) {
    most =
        std::min(most, (node.memory_mib_allocatable - node.memory_mib_requested) / req.memory_mib);
  }
  for (const ResourceRequest& r : req.extended) {
    most = std::min<int64_t>(most, node.Free(r.resource) / r.count);
  }
  return most;
}

// A gang's pod waiting for a node: pending and not reserved.
bool WaitsForNode(const Pod& pod) { return pod.phase == PodPhase::kPending && !pod.reserved; }

int64_t Unplaced(const Gang& gang, const PodStore& pods) {
  return std::count_if(gang.members.begin(), gang.members.end(),
                       [&](PodId id) { return WaitsForNode(pods[id.value()]); });
}

}  // namespace

GangId Engine::DeclareGang(const GangSpec& spec, OwnerId owner) {
  MIGSIM_CHECK(spec.min_member >= 1, "a gang of no pods");
  MIGSIM_CHECK(owner.value() < controllers_.size(), "a gang declared by no controller");
  gangs_.push_back(Gang{.spec = spec, .owner = owner});
  return GangId(static_cast<GangId::Rep>(gangs_.size() - 1));
}

PodId Engine::SubmitToGang(TemplateId tmpl, OwnerId owner, uint32_t tag, GangId id, Handover from) {
  CheckHandover(from);
  MIGSIM_CHECK(id.value() < gangs_.size() && gangs_[id.value()].owner == owner,
               "a pod submitted into a gang its controller did not declare");
  MIGSIM_CHECK(templates_[tmpl.value()].gang, "a gang's pod from a template that is not a gang's");
  CountSubmission(owner);
  const PodId pod = AddPod(tmpl, owner, tag, std::nullopt, from);
  pods_[pod.value()].gang = id;
  Gang& gang = gangs_[id.value()];
  gang.attempt_lost_at.reset();  // a new attempt
  gang.attempt_lost_to = EndReason::kNone;
  gang.members.push_back(pod);
  ++gang.live;
  return pod;
}

// The gang is tried whole when its first queued pod comes to the front, whatever the
// queue order: its pods are tried back to back. The other pods' queue entries stay, and
// are dropped when reached once bound; a reserved pod keeps its entry, so that releasing
// the reservation needs no requeue.
void Engine::ScheduleGangPod(Pod& pod) {
  const Gang& gang = gangs_[pod.gang.value()];
  if (TryGang(pod.gang) == GangOutcome::kBound) {
    MIGSIM_CHECK(pod.phase != PodPhase::kPending, "a bound gang left its front pod pending");
    queue_.Accept();
    PodDone(pod.id);
    return;
  }
  queue_.Reject(std::max(gang.backoff_until, now_), now_);
}

bool Engine::GangMayTry(const Gang& gang) const {
  if (gang.live < gang.spec.min_member) return false;  // PreFilter: too few pods exist
  if (now_ < gang.backoff_until) return false;
  return gang.failed_at != ClusterEvents();
}

Engine::GangOutcome Engine::TryGang(GangId id) {
  Gang& gang = gangs_[id.value()];
  CompactMembers(gang);
  if (!GangMayTry(gang)) return GangOutcome::kRejected;
  GangConstraint constraint = ConstraintOf(gang);
  const bool held_before = !gang.reserved.empty();
  const bool choose_domain = !constraint.topology_key.empty() && constraint.topology_value.empty();
  const std::map<std::string, int64_t> room = GangRoom(gang, constraint, choose_domain);
  if (!Hopeless(gang, room) &&
      (choose_domain ? TryInDomains(gang, constraint, room) : ReserveMembers(gang, constraint))) {
    Permit(gang);
    return GangOutcome::kBound;
  }
  const auto assigned = static_cast<int64_t>(gang.reserved.size()) + gang.bound;
  if (assigned > 0 && MayHold(gang, assigned) && !gang.reserved.empty()) {
    if (!held_before) {
      gang.first_reserved = now_;
      events_.Push(now_ + gang.spec.schedule_timeout, GangTimeout{id, gang.round});
    }
    NotifyAllocation();
    GangFailed(gang);
    return GangOutcome::kHeld;
  }
  // Reservations made in this attempt alone are undone unseen: the cluster is as it was.
  ReleaseReservations(gang, held_before);
  PreemptForGang(gang);
  GangFailed(gang);
  return GangOutcome::kRejected;
}

bool Engine::MayHold(const Gang& gang, int64_t assigned) const {
  const int64_t min = gang.spec.min_member;
  const bool small_gap = assigned < min && static_cast<double>(min - assigned) <= kSmallGap * min;
  return small_gap && gang.spec.topology_key.empty() && gang.timed_out_at != PodReleases();
}

// Skipping an attempt that can neither complete nor end holding leaves the same outcome as
// making it (its reservations would be undone), at O(nodes) instead of O(pods x nodes):
// gangs waiting for room are retried after every cluster event.
bool Engine::Hopeless(const Gang& gang, const std::map<std::string, int64_t>& room) const {
  const int64_t missing = Unplaced(gang, pods_);
  int64_t best = 0;
  for (const auto& [domain, count] : room) best = std::max(best, count);
  if (best >= missing) return false;
  return !MayHold(gang, static_cast<int64_t>(gang.reserved.size()) + gang.bound + best);
}

PodId Engine::FirstUnplaced(const Gang& gang) const {
  for (PodId id : gang.members) {
    if (WaitsForNode(pods_[id.value()])) return id;
  }
  return PodId();
}

std::map<std::string, int64_t> Engine::GangRoom(const Gang& gang, const GangConstraint& constraint,
                                                bool by_domain) const {
  std::map<std::string, int64_t> room;
  const PodId pending = FirstUnplaced(gang);
  if (!pending.valid()) return room;
  GangConstraint any_domain = constraint;
  if (by_domain) any_domain.topology_key.clear();
  PodView view = ViewOf(pods_[pending.value()]);
  view.gang = &any_domain;
  const ClusterView cluster(node_info_, resources_, now_);
  for (const NodeInfo& node : node_info_) {
    if (!cluster.Fits(view, node)) continue;
    const std::string* domain =
        by_domain ? FindLabel(node.labels, constraint.topology_key) : nullptr;
    if (by_domain && domain == nullptr) continue;
    room[domain == nullptr ? "" : *domain] +=
        constraint.one_per_node ? 1 : FreeRoom(*view.requests, node, gang.live);
  }
  return room;
}

// A gang's pods are unschedulable pods to the Cluster Autoscaler and Karpenter: the
// Coscheduling plugin rejects them while the gang cannot be placed whole. As the
// autoscaler's filter-out-schedulable step does, the room its pending pods find on the
// nodes as they are is taken off, so that new nodes are asked for the rest only. A gang
// with a topology key asks for all its pending pods on new nodes in its domain (a node
// group's nodes share its labels, so they are one domain). None for a gang that has not
// failed an attempt yet, or that PreFilter rejects (too few pods exist: nodes would not
// help).
std::optional<PendingPods> Engine::GangAwaitingNodes(const Gang& gang) const {
  if (!gang.failed_at || gang.live < gang.spec.min_member) return std::nullopt;
  const int64_t missing = Unplaced(gang, pods_);
  if (missing == 0) return std::nullopt;
  const GangConstraint constraint = ConstraintOf(gang);
  int64_t on_nodes = 0;
  if (constraint.topology_key.empty()) {
    for (const auto& [domain, count] : GangRoom(gang, constraint, false)) on_nodes += count;
  }
  if (on_nodes >= missing) return std::nullopt;
  // On new nodes, only the topology value chosen by members already placed binds: with
  // none, any one group's nodes are a domain.
  return PendingPods{.view = ViewOf(pods_[FirstUnplaced(gang).value()]),
                     .count = static_cast<uint32_t>(missing - on_nodes),
                     .gang = GangConstraint{.one_per_node = constraint.one_per_node,
                                            .topology_key = constraint.topology_value.empty()
                                                                ? std::string()
                                                                : constraint.topology_key,
                                            .topology_value = constraint.topology_value}};
}

GangConstraint Engine::ConstraintOf(const Gang& gang) const {
  GangConstraint c{.one_per_node = gang.spec.one_per_node, .topology_key = gang.spec.topology_key};
  for (PodId id : gang.members) {
    const Pod& pod = pods_[id.value()];
    if (!pod.holds_node()) continue;
    c.Take(pod.node);
    if (c.topology_key.empty() || !c.topology_value.empty()) continue;
    if (const std::string* v = FindLabel(node_info_[pod.node.value()].labels, c.topology_key)) {
      c.topology_value = *v;
    }
  }
  return c;
}

// A gang pod that fits nowhere asks the policy for no MIG repartition (PostFilter): gangs
// are multi-node training, which takes whole GPUs (docs/scheduling.md §3).
bool Engine::ReserveMembers(Gang& gang, GangConstraint& constraint) {
  for (PodId id : gang.members) {
    Pod& pod = pods_[id.value()];
    if (pod.phase != PodPhase::kPending || pod.reserved) continue;
    PodView view = ViewOf(pod);
    view.gang = &constraint;
    const ClusterView cluster(node_info_, resources_, now_);
    const std::optional<Placement> placement = policy_->Place(cluster, view);
    if (!placement) return false;
    const bool valid = Valid(*placement, view, cluster);
    decisions_.Count(valid, [&] { return RejectionReason(*placement, pod, view, cluster); });
    if (!valid) return false;
    Assume(pod, placement->node, placement->devices);
    pod.reserved = true;
    gang.reserved.push_back(pod.id);
    constraint.Take(placement->node);
  }
  return true;
}

// Each domain (a value of the topology label, in order) with room for the gang's pending
// pods is tried whole; one that cannot hold them is undone before the next.
bool Engine::TryInDomains(Gang& gang, GangConstraint& constraint,
                          const std::map<std::string, int64_t>& room) {
  const int64_t missing = Unplaced(gang, pods_);
  const std::vector<NodeId> taken = constraint.taken;
  for (const auto& [domain, count] : room) {
    if (count < missing) continue;  // it cannot hold them all
    constraint.topology_value = domain;
    if (ReserveMembers(gang, constraint)) return true;
    ReleaseReservations(gang, false);
    constraint.taken = taken;
  }
  return false;
}

void Engine::Permit(Gang& gang) {
  const std::vector<PodId> reserved = std::move(gang.reserved);
  gang.reserved.clear();
  ++gang.round;  // its timeout is moot
  gang.failures = 0;
  gang.failed_at.reset();
  gang.bound += static_cast<uint32_t>(reserved.size());
  gang.permits.emplace_back(now_, gang.bound);
  for (PodId id : reserved) {
    Pod& pod = pods_[id.value()];
    pod.reserved = false;
    BindAssumed(pod);
  }
}

void Engine::ReleaseReservations(Gang& gang, bool announce) {
  if (gang.reserved.empty()) return;
  for (PodId id : gang.reserved) {
    Pod& pod = pods_[id.value()];
    FreeNode(pod);
    pod.reserved = false;
    pod.node = NodeId::Invalid();
  }
  gang.reserved.clear();
  ++gang.round;
  if (!announce) return;
  ++reservation_releases_;
  queue_.UnblockAll();
  NotifyAllocation();
}

void Engine::GangFailed(Gang& gang) {
  gang.failed_at = ClusterEvents();
  ++gang.failures;
  gang.backoff_until = now_ + scheduler_.Backoff(static_cast<int>(gang.failures));
}

void Engine::Handle(const GangTimeout& e) {
  Gang& gang = gangs_[e.gang.value()];
  // Its own release is no news to the gang: it still waits for someone else's event.
  const bool saw_nothing = gang.failed_at == ClusterEvents();
  ReleaseReservations(gang, true);
  if (saw_nothing) gang.failed_at = ClusterEvents();
  gang.timed_out_at = PodReleases();
  ++gang.timeouts;
  ++gang.failures;
  gang.backoff_until = now_ + scheduler_.Backoff(static_cast<int>(gang.failures));
}

// Amortised O(1) per ended member: the list is compacted when half of it has ended.
void Engine::CompactMembers(Gang& gang) {
  if (gang.members.size() <= 2 * static_cast<size_t>(gang.live)) return;
  std::erase_if(gang.members, [this](PodId id) { return pods_[id.value()].ended_already(); });
}

// The Coscheduling plugin's Unreserve: a waiting pod that goes rejects its gang's other
// waiting pods.
void Engine::LeaveGang(Pod& pod) {
  Gang& gang = gangs_[pod.gang.value()];
  --gang.live;
  if (pod.on_node()) --gang.bound;
  if (pod.reserved) ReleaseReservations(gang, true);
}

void Engine::ReleaseReservationsOn(NodeId node) {
  for (Gang& gang : gangs_) {
    if (std::any_of(gang.reserved.begin(), gang.reserved.end(),
                    [&](PodId id) { return pods_[id.value()].node == node; })) {
      ReleaseReservations(gang, true);
    }
  }
}

void Engine::CheckGangStart(const Pod& pod) const {
  const Gang& gang = gangs_[pod.gang.value()];
  const auto permit = std::find_if(gang.permits.rbegin(), gang.permits.rend(),
                                   [&](const auto& p) { return p.first == pod.bound; });
  const bool whole = permit != gang.permits.rend() && permit->second >= gang.spec.min_member;
  MIGSIM_CHECK(whole, "a gang pod starts without minMember pods of its gang bound with it");
}

}  // namespace migsim

namespace migsim {

// At the end of a run (CheckAccounting): each gang's counts are its members' states, a
// pod is reserved exactly when its gang lists it so, and a gang holding reservations has
// its timeout queued. O(pods + gangs' members + queued events).
std::optional<std::string> Engine::GangError() const {
  std::vector<uint8_t> listed(pods_.size(), 0), reserved(pods_.size(), 0);
  for (size_t g = 0; g < gangs_.size(); ++g) {
    const Gang& gang = gangs_[g];
    const std::string name = "the gang of " + controllers_[gang.owner.value()]->name();
    uint32_t live = 0, bound = 0;
    for (PodId id : gang.members) {
      const Pod& pod = pods_[id.value()];
      if (pod.gang != GangId(static_cast<GangId::Rep>(g)) || listed[id.value()]++ > 0) {
        return name + " lists " + PodName(pod) + ", which is not its member once";
      }
      live += pod.ended_already() ? 0 : 1;
      bound += pod.on_node() ? 1 : 0;
    }
    if (live != gang.live || bound != gang.bound) {
      return name + " counts " + std::to_string(gang.live) + " live and " +
             std::to_string(gang.bound) + " bound pods but has " + std::to_string(live) + " and " +
             std::to_string(bound);
    }
    for (PodId id : gang.reserved) {
      const Pod& pod = pods_[id.value()];
      if (!pod.reserved || pod.phase != PodPhase::kPending || reserved[id.value()]++ > 0) {
        return name + " holds a reservation for " + PodName(pod) + ", which is " +
               std::string(PhaseName(pod.phase)) + (pod.reserved ? " and reserved" : "");
      }
    }
  }
  for (const Pod& pod : pods_) {
    if (pod.gang.valid() && !pod.ended_already() && listed[pod.id.value()] == 0) {
      return PodName(pod) + " is not listed by its gang";
    }
    if (pod.reserved && reserved[pod.id.value()] == 0) {
      return PodName(pod) + " is reserved but no gang holds its reservation";
    }
  }
  std::vector<uint8_t> timed(gangs_.size(), 0);
  for (const auto& entry : events_.entries()) {
    const auto* timeout = std::get_if<GangTimeout>(&entry.payload);
    if (timeout != nullptr && !Stale(entry.payload)) timed[timeout->gang.value()] = 1;
  }
  for (size_t g = 0; g < gangs_.size(); ++g) {
    if (!gangs_[g].reserved.empty() && timed[g] == 0) {
      return "the gang of " + controllers_[gangs_[g].owner.value()]->name() +
             " holds reservations but no timeout releases them";
    }
  }
  return std::nullopt;
}

}  // namespace migsim
