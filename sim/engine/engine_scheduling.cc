// The scheduling cycle and binding: the part of the engine between the policy's
// answers and the node's devices.

#include <algorithm>

#include "sim/core/check.h"
#include "sim/core/text.h"
#include "sim/engine/engine.h"

namespace migsim {

void Engine::ScheduleCycle() {
  CallClusterControllers(&ClusterController::BeforeCycle);  // Kueue's admissions
  BindPinned();
  if (!queue_.HasWork()) return;
  queue_.BeginCycle(now_);
  while (std::optional<PodId> front = queue_.Front()) {
    Pod& pod = pods_[front->value()];
    if (pod.phase != PodPhase::kPending) {
      queue_.Drop();
      PodDone(pod.id);
    } else if (pod.gang.valid()) {
      ScheduleGangPod(pod);
    } else if (TryBind(pod)) {
      queue_.Accept();
      PodDone(pod.id);
    } else {
      ++pod.attempts;
      queue_.Reject(now_ + scheduler_.Backoff(static_cast<int>(pod.attempts)), now_);
    }
  }
  ScheduleWakes();
}

// One wake of each kind is queued at a time, for the earliest time the queue needs; a
// later one is queued when that one has run.
void Engine::ScheduleWakes() {
  if (const std::optional<SimTime> retry = queue_.NextRetry(now_);
      retry && (backoff_wake_ <= now_ || *retry < backoff_wake_)) {
    events_.Push(*retry, BackoffWake{});
    backoff_wake_ = *retry;
  }
  if (const std::optional<SimTime> flush = queue_.NextFlush(now_);
      flush && (flush_wake_ <= now_ || *flush < flush_wake_)) {
    events_.Push(*flush, UnschedulableFlush{});
    flush_wake_ = *flush;
    ++pending_flushes_;
  }
}

void Engine::Handle(const BackoffWake&) { queue_.Wake(now_); }

void Engine::Handle(const UnschedulableFlush&) {
  --pending_flushes_;
  queue_.Wake(now_);
}

// What the pod's template leaves empty is null in its view: Fits, run for every node a
// policy looks at, then skips a filter on one comparison.
PodView Engine::ViewOf(const Pod& pod, uint32_t pending_alike) const {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  const auto unless_empty = [](const auto& field) { return field.empty() ? nullptr : &field; };
  PodView view{pod.id,
               &t.requests,
               unless_empty(t.node_selector),
               unless_empty(t.node_affinity),
               pod.created,
               pending_alike,
               t.priority,
               pod.recorded_run ? pod.recorded_run.optional() : template_estimate_[pod.tmpl.value()]};
  view.tolerations = unless_empty(t.tolerations);
  view.labels = unless_empty(t.labels);
  view.namespace_index = t.namespace_index;
  view.claims = unless_empty(t.resource_claims);
  if (!t.shared_claims.empty()) {
    view.claims = &t.resource_claims;
    view.shared_claim_ids = &t.shared_claims;
    view.shared_claims = shared_claims_.states();
  }
  view.device_classes = device_classes_;
  AddServiceTo(pod, view);
  return view;
}

// Nominated pods' resources are held against this one while the policy places it, its
// answer is checked and preemption's dry run looks for room (HoldNominated); they are
// given back before anything is booked or repartitioned, since both rewrite the node's
// books.
bool Engine::TryBind(Pod& pod) {
  if (templates_[pod.tmpl.value()].node_name.valid()) return TryBindPinned(pod);
  const PodView view = ViewOf(pod, static_cast<uint32_t>(queue_.FrontClassSize()));
  ClusterView sampled(node_info_, resources_, now_, &capacity_index_);
  const auto nodes = static_cast<uint32_t>(node_info_.size());
  const uint32_t find = scheduler_.FeasibleNodesToFind(nodes);
  if (find > 0) sampled.SampleNodes(find, next_start_node_);
  const ClusterView& cluster = sampled;
  const bool holds = !nominated_pods_.empty();
  if (holds) HoldNominated(pod, +1);
  std::optional<Placement> placement = policy_->Place(cluster, view);
  if (find > 0) next_start_node_ = (next_start_node_ + cluster.examined()) % nodes;
  // The policy's answer is checked, never trusted: a bad answer leaves the pod pending.
  const bool valid = placement && Valid(*placement, view, cluster);
  if (placement) {
    decisions_.Count(valid, [&] { return RejectionReason(*placement, pod, view, cluster); });
  }
  std::vector<MigReconfiguration> changes;
  if (!placement) changes = PostFilter(pod, view, cluster);
  if (holds) HoldNominated(pod, -1);
  if (!changes.empty()) RequestMigLayouts(changes);
  if (!valid) return false;
  Bind(pod, placement->node, placement->devices);
  return true;
}

// The pod fits no node: the policy's post-filter may ask for MIG repartitions (returned,
// for the caller to apply); when it asks for nothing, DefaultPreemption may evict lower
// priorities to make room (eviction keeps the victims' resources booked until they end).
std::vector<MigReconfiguration> Engine::PostFilter(Pod& pod, const PodView& view,
                                                   const ClusterView& cluster) {
  std::vector<MigReconfiguration> changes = policy_->PostFilter(cluster, view);
  if (changes.empty()) Preempt(pod, view);
  return changes;
}

bool Engine::Valid(const Placement& placement, const PodView& pod, const ClusterView& cluster) {
  const NodeId node = placement.node;
  if (!node.valid() || node.value() >= node_info_.size()) return false;
  if (!cluster.Fits(pod, node_info_[node.value()])) return false;
  return placement.devices.empty() ||
         runtimes_[node.value()].ValidChoices(*pod.requests, placement.devices);
}

std::string Engine::RejectionReason(const Placement& placement, const Pod& pod, const PodView& view,
                                    const ClusterView& cluster) const {
  const std::string at = "at " + FormatShortest(now_.seconds()) + " s, pod " + PodName(pod) + ": ";
  const NodeId node = placement.node;
  if (!node.valid() || node.value() >= node_info_.size()) {
    const size_t n = node_info_.size();
    return at + "node " + (node.valid() ? std::to_string(node.value()) : "(none)") +
           " does not exist (the cluster has " + std::to_string(n) +
           (n == 1 ? " node)" : " nodes)");
  }
  const std::string name = "node '" + node_info_[node.value()].name + "'";
  if (!cluster.Fits(view, node_info_[node.value()])) return at + "it does not fit " + name;
  return at + "its device choices on " + name +
         " are not devices there, not free, or do not serve its requests";
}

void Engine::Bind(Pod& pod, NodeId node, std::span<const DeviceChoice> devices) {
  Assume(pod, node, devices);
  BindAssumed(pod);
}

void Engine::Assume(Pod& pod, NodeId node, std::span<const DeviceChoice> devices) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  NodeRuntime& runtime = runtimes_[node.value()];
  NodeInfo& info = node_info_[node.value()];
  ClearNomination(pod);
  pod.node = node;
  pod.device_begin = static_cast<uint32_t>(device_records_.held.size());
  allocated_weight_ += runtime.Allocate(t.requests, device_records_.held, info, devices);
  if (!t.resource_claims.empty() || !t.shared_claims.empty()) AllocateClaims(pod, runtime, info);
  NodeChanged(node.value());
  pod.device_count = static_cast<uint32_t>(device_records_.held.size() - pod.device_begin);
  UpdateMigFragmentation(node.value());
  pod.gpus = runtime.GpusHeld(DevicesOf(pod));
  pod.node_slot = static_cast<uint32_t>(info.pods.size());
  info.pods.push_back({pod.id, &t.requests});
  BookTenant(pod, +1);
  for (const NodeRuntime::Held& held : DevicesOf(pod)) {
    const NodeRuntime::Device& dev = runtime.devices()[held.device];
    DeviceDesc desc{
        static_cast<int16_t>(dev.plugin.gpu),           -1, 0, dev.plugin.shared, held.count,
        dev.plugin.fractional ? dev.plugin.replicas : 0};
    if (const std::optional<MigPlacement> gi = runtime.DevicePlacement(held.device)) {
      desc.profile = static_cast<int16_t>(gi->profile);
      desc.start = static_cast<int16_t>(gi->start);
    }
    device_records_.desc.push_back(desc);
  }
  pod.device_begin = device_records_.Settle(pod.device_begin, pod.device_count);
}

// The scheduler's DRA plugin allocates the pod's claims on the node it was assumed on.
void Engine::AllocateClaims(Pod& pod, NodeRuntime& runtime, NodeInfo& info) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  if (!t.shared_claims.empty()) return AllocateWithSharedClaims(pod, runtime, info);
  const NodeRuntime::ClaimResult result =
      runtime.AllocateClaims(t.resource_claims, device_classes_, device_records_.held, info);
  allocated_weight_ += result.weight;
  pod.mig_created = result.created;
  CountCreated(runtime, result.created);
}

void Engine::CountCreated(const NodeRuntime& runtime, uint32_t created) {
  counters_.mig_instances_created += created;
  if (created > 0)
    counters_.mig_creation_seconds += runtime.spec().dra->mig_create.seconds() * created;
}

void Engine::BindAssumed(Pod& pod) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  pod.bound = now_;
  pod.phase = PodPhase::kStarting;
  for (EngineObserver* o : observers_) o->OnPodBound(now_, pod);
  NotifyAllocation();
  if (runtimes_[pod.node.value()].AdmissionRejects(t.requests)) {
    events_.Push(now_, PodEnd{pod.id, pod.generation, EndReason::kAdmissionError});
    return;
  }
  SimTime startup =
      t.job_class.valid() ? job_classes_[t.job_class.value()].startup : SimTime::Zero();
  // DynamicMIG: the kubelet plugin creates the pod's instances, one after another, before
  // its containers start.
  if (pod.mig_created > 0 || pod.claim_ready > now_) {
    const SimTime create = runtimes_[pod.node.value()].spec().dra->mig_create;
    const SimTime own = SimTime::Micros(create.micros() * pod.mig_created);
    startup = startup + std::max(own, pod.claim_ready - now_);
  }
  events_.Push(now_ + startup, PodStart{pod.id, pod.generation});
}

void Engine::UpdateMigFragmentation(uint32_t node) {
  if (config_.measure_mig_fragmentation) {
    mig_fragmentation_.Set(now_, node, StrandedMigSlices(node_info_[node]));
  }
}

double Engine::mig_fragmentation() const { return mig_fragmentation_.Fragmentation(now_); }

}  // namespace migsim
