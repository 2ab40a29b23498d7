#include "sim/engine/engine.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

#include "sim/core/check.h"
#include "sim/engine/engine_api.h"

namespace migsim {

Engine::Engine(EngineInputs inputs, Policy& policy, EngineConfig config)
    : cluster_(inputs.cluster),
      resources_(std::move(inputs.resources)),
      job_classes_(std::move(inputs.job_classes)),
      templates_(std::move(inputs.templates)),
      controllers_(std::move(inputs.controllers)),
      cluster_controllers_(std::move(inputs.cluster_controllers)),
      policy_(&policy),
      scheduler_(inputs.scheduler),
      queue_order_(std::move(inputs.queue_order)),
      config_(config),
      rng_(config.seed),
      submitted_by_owner_(controllers_.size(), 0),
      budgets_(std::move(inputs.disruption_budgets), templates_),
      preemption_rng_(config.seed ^ 0x9e3779b97f4a7c15ULL),
      shared_claims_(std::move(inputs.shared_claims)) {
  device_classes_ = std::move(inputs.device_classes);
  // A device per pod, typically. Releasing pods recycles their devices' records instead
  // (ReleaseOverPods), so that they follow the pods alive.
  if (!config_.release_ended_pods) {
    device_records_.held.reserve(inputs.expected_pods);
    device_records_.desc.reserve(inputs.expected_pods);
  }
  released_census_.by_owner.assign(controllers_.size(), 0);
  const size_t n = cluster_->nodes.size();
  node_info_.resize(n);
  reconfiguring_until_.assign(n, SimTime::Zero());
  runtimes_.reserve(n);
  node_conditions_.resize(n);
  node_changed_at_.assign(n, SimTime::Zero());
  for (size_t i = 0; i < n; ++i) {
    runtimes_.emplace_back(cluster_->nodes[i], NodeId(static_cast<NodeId::Rep>(i)), resources_,
                           node_info_[i]);
    capacity_weight_ += runtimes_.back().capacity_weight();
    allocated_weight_ += runtimes_.back().allocated_weight();
    node_conditions_[i].gpu_unhealthy.assign(runtimes_.back().gpus().size(), 0);
  }
  mig_fragmentation_ = MigFragmentationMeter(n);
  for (uint32_t i = 0; i < n; ++i) UpdateMigFragmentation(i);
  AssignSchedulingClasses();
  lowest_priority_ = std::numeric_limits<int32_t>::max();
  for (const PodTemplate& t : templates_) lowest_priority_ = std::min(lowest_priority_, t.priority);
}

namespace {

// What makes two templates' pods interchangeable to the scheduler, as one string: their
// requests, node selector, node affinity, priority and namespace. Strings are length-prefixed, so
// keys are equal exactly when those are.
std::string SchedulingKey(const PodTemplate& t) {
  std::string key = std::to_string(t.requests.cpu_milli) + ' ' +
                    std::to_string(t.requests.memory_mib) + ' ' + std::to_string(t.priority) +
                    (t.preempts ? "p" : "n") + ' ' + std::to_string(t.namespace_index);
  for (const ResourceRequest& r : t.requests.extended) {
    key += ' ' + std::to_string(r.resource.value()) + ':' + std::to_string(r.count);
  }
  auto add = [&key](const std::string& text) { key += std::to_string(text.size()) + ':' + text; };
  key += "|s";
  for (const auto& [k, v] : t.node_selector) add(k), add(v);
  key += "|a";
  for (const LabelIn& term : t.node_affinity) {
    add(term.key);
    key += std::to_string(term.values.size()) + '#';
    for (const std::string& v : term.values) add(v);
  }
  // Tolerations decide which nodes pass TaintToleration: a pod that tolerates nothing must
  // not hold back one that tolerates the GPU nodes' taint.
  key += "|t";
  for (const Toleration& tol : t.tolerations) {
    add(tol.key);
    key += std::to_string(static_cast<int>(tol.op)) + ':';
    add(tol.value);
    key += tol.effect ? std::to_string(static_cast<int>(*tol.effect)) : "*";
  }
  // Pods with different ResourceClaims fit different nodes: they are not alike.
  key += "|c";
  for (const dra::ResourceClaim& claim : t.resource_claims) {
    for (const dra::DeviceRequest& request : claim.requests) {
      key += '#';
      for (const dra::DeviceSubRequest& sub : request.alternatives) {
        add(sub.device_class);
        key += std::to_string(static_cast<int>(sub.mode)) + ':' + std::to_string(sub.count);
        for (const dra::Selector& selector : sub.selectors) add(selector.expression());
      }
    }
  }
  // Pods sharing different claims may be pinned to different nodes.
  key += "|r";
  for (dra::SharedClaimId id : t.shared_claims) key += std::to_string(id.value()) + ',';
  // A pod waiting for its own node blocks no pod that could go elsewhere.
  if (t.node_name.valid()) key += "|n" + std::to_string(t.node_name.value());
  return key;
}

// What the scheduler is told of a job-class pod's run time: its run time on a whole GPU
// (or its default), else the first one its class lists.
std::optional<SimTime> RunEstimate(const PodTemplate& t, const std::vector<JobClass>& classes) {
  if (t.runs_forever || !t.job_class.valid()) return std::nullopt;
  const JobClass& job_class = classes[t.job_class.value()];
  if (std::optional<SimTime> run = job_class.RunTimeOn("", "gpu")) return run;
  if (!job_class.run_time.empty()) return job_class.run_time.front().second;
  return std::nullopt;
}

// Observers' OnProgress is called after every this many instants: often enough for a live
// line, rare enough to cost nothing.
constexpr uint64_t kInstantsPerProgress = 4096;

}  // namespace

void Engine::AssignSchedulingClasses() {
  // Pods of templates with equal requests, selectors, affinity and priority are
  // interchangeable to the scheduler: one class, one blocked flag.
  std::unordered_map<std::string, size_t> classes;
  std::vector<int32_t> class_priority;
  for (const PodTemplate& t : templates_) {
    const std::string own = t.gang ? "|gang" + std::to_string(template_class_.size()) : "";
    const auto [it, added] = classes.try_emplace(SchedulingKey(t) + own, classes.size());
    if (added) class_priority.push_back(t.priority);
    template_class_.emplace_back(static_cast<SchedulingClassId::Rep>(it->second));
    template_estimate_.push_back(RunEstimate(t, job_classes_));
  }
  queue_ = SchedulingQueue(std::move(class_priority));
  queue_.set_unschedulable_timeout(scheduler_.pod_max_in_unschedulable);
  if (queue_order_) {
    queue_.set_order(
        [this](PodId a, PodId b) {
          return queue_order_->Less(ViewOf(pods_[a.value()]), ViewOf(pods_[b.value()]));
        },
        queue_order_->OrdersWithinClass());
    SetUpDisciplines();
  }
}

void Engine::Run() {
  for (size_t i = 0; i < controllers_.size(); ++i) {
    controllers_[i]->Start(*this, OwnerId(static_cast<OwnerId::Rep>(i)));
  }
  StartClusterControllers();
  NotifyAllocation();
  ScheduleCycle();
  uint64_t instants = 0;
  while (std::optional<SimTime> next = events_.NextTime()) {
    if (OverBudget()) break;
    if (Stale(events_.Top().payload)) {
      events_.Pop();
      continue;
    }
    if (OnlyFlushesLeft()) break;
    // Max() is "never" (a saturated duration): such events do not run.
    if (*next > config_.horizon || *next == SimTime::Max()) break;
    MIGSIM_CHECK(*next >= now_, "time never goes backwards");
    now_ = *next;
    while (events_.NextTime() == now_) {
      const Event event = events_.Pop().payload;
      if (!Stale(event)) std::visit([this](const auto& e) { Handle(e); }, event);
    }
    ScheduleCycle();
    CallClusterControllers(&ClusterController::AfterCycle);
    if (!over_blocks_.empty()) ReleaseOverPods();
    if (++instants % kInstantsPerProgress == 0) {
      for (EngineObserver* o : observers_) o->OnProgress(now_, config_.horizon);
    }
    if (config_.should_stop && config_.should_stop()) {
      stopped_ = true;
      return;
    }
  }
  // With a horizon the run reports the cluster as it stands then; the state does not
  // change between the last event and the horizon.
  if (config_.horizon != SimTime::Max() && !overrun_) now_ = config_.horizon;
  CallClusterControllers(&ClusterController::Finish);
  CheckAccounting();
}

// Checked between instants: the instant that went past a bound is finished first, so the
// state stays consistent (the pod accounting still holds) when the run stops.
bool Engine::OverBudget() {
  const RunBudget& budget = config_.budget;
  if (static_cast<int64_t>(pods_.size()) > budget.pods) {
    overrun_ = BudgetOverrun{BudgetItem::kPods, budget.pods, now_};
  } else if (counters_.fault_hits > budget.fault_hits) {
    overrun_ = BudgetOverrun{BudgetItem::kFaultHits, budget.fault_hits, now_};
  }
  return overrun_.has_value();
}

// In the submitting call, not in AddPod where the pod is stored: the pod accounting
// compares the two (engine_accounting.cc).
void Engine::CountSubmission(OwnerId owner) {
  MIGSIM_CHECK(owner.value() < submitted_by_owner_.size(), "a pod submitted by no controller");
  ++submitted_by_owner_[owner.value()];
}

PodId Engine::Submit(TemplateId tmpl, OwnerId owner, uint32_t tag) {
  CountSubmission(owner);
  return AddPod(tmpl, owner, tag, std::nullopt);
}

PodId Engine::SubmitResumed(TemplateId tmpl, OwnerId owner, uint32_t tag, Handover from) {
  CheckHandover(from);
  CountSubmission(owner);
  return AddPod(tmpl, owner, tag, std::nullopt, from);
}

PodId Engine::SubmitRecorded(TemplateId tmpl, OwnerId owner, uint32_t tag, SimTime run) {
  // A trace row's run time replaces its template's job class's (scenarios/README.md, pod
  // lists: "run_s, else the job class"); the class, when there is one, still gives the
  // pod's duty cycle and GPU memory (an observed workload's, from `migsim import`).
  MIGSIM_CHECK(run >= SimTime::Zero(), "a recorded run time is never negative");
  CountSubmission(owner);
  return AddPod(tmpl, owner, tag, run);
}

PodId Engine::AddPod(TemplateId tmpl, OwnerId owner, uint32_t tag,
                     std::optional<SimTime> recorded_run, Handover from) {
  PodId id(static_cast<PodId::Rep>(pods_.size()));
  Pod& pod = pods_.Add();
  pod.id = id;
  pod.owner = owner;
  pod.tag = tag;
  pod.tmpl = tmpl;
  pod.created = now_;
  pod.recorded_run = recorded_run;
  // Before it is queued: queue orders may read them.
  pod.resumed = from.work;
  pod.attained_gpu_s = from.attained_gpu_s;
  queue_.Push(id, template_class_[tmpl.value()]);
  if (templates_[tmpl.value()].node_name.valid()) pinned_.push_back(id);
  ScheduleRankChange(pod);
  budgets_.AddExpected(tmpl, 1);
  for (EngineObserver* o : observers_) o->OnPodSubmitted(now_, pod);
  return id;
}

// A controller may name a pod long over, whose record was released: nothing to do.
void Engine::Delete(PodId id) {
  if (pods_.released(id.value())) return;
  Pod& pod = pods_[id.value()];
  if (pod.ended_already()) return;
  if (pod.gang.valid()) BookLostAttempt(pod);
  EndDeleted(pod);
}

// Kueue's evictions suspend Jobs, whose controller deletes their pods gracefully. A pod
// already terminating (killed for another reason) is deleted at once, its kill booked.
void Engine::DeleteGracefully(PodId id) {
  if (pods_.released(id.value())) return;
  Pod& pod = pods_[id.value()];
  if (pod.ended_already()) return;
  if (pod.terminating || !pod.on_node()) return Delete(id);
  const SimTime end = now_ + templates_[pod.tmpl.value()].termination_grace;
  Terminate(pod, end, EndReason::kDeleted, LossBook::kPreemption);
}

void Engine::EndDeleted(Pod& pod) {
  Leave(pod);
  // A pending pod stays in the scheduling queue until the queue reaches it and drops it.
  pod.phase = PodPhase::kDeleted;
  pod.reason = EndReason::kDeleted;
  pod.ended = now_;
  ++pod.generation;
  for (EngineObserver* o : observers_) o->OnPodEnded(now_, pod);
  PodDone(pod.id);
}

void Engine::SetTimer(SimTime at, OwnerId owner, uint64_t tag) {
  MIGSIM_CHECK(at >= now_, "a timer in the past");
  events_.Push(at, ControllerTimer{owner, tag});
}

void Engine::Handle(const ControllerTimer& e) {
  controllers_[e.owner.value()]->OnTimer(*this, e.tag);
}

void Engine::Handle(const PodStart& e) {
  Pod& pod = pods_[e.pod.value()];
  if (pod.generation != e.generation) return;  // deleted or evicted meanwhile
  if (pod.gang.valid()) CheckGangStart(pod);
  pod.phase = PodPhase::kRunning;
  if (!pod.has_started) pod.started = now_;
  pod.has_started = true;
  SetReady(pod, true);
  for (EngineObserver* o : observers_) o->OnPodStarted(now_, pod);
  if (!FitsDeviceMemory(pod)) {
    OutOfMemory(pod);
    return;
  }
  const bool ends = !templates_[pod.tmpl.value()].runs_forever;
  std::optional<SimTime> run;
  if (ends) {
    run = PlanRun(pod);
    if (!run) {
      events_.Push(now_, PodEnd{pod.id, pod.generation, EndReason::kNoRunTime});
      return;
    }
  }
  if (SetBusyOfExclusiveDevices(pod, DutyCycleOf(pod))) NotifyNodeGpuUse(pod.node.value());
  ScheduleRankChange(pod);
  if (std::optional<uint32_t> shared = SharedDevice(pod)) {
    AddProcess(pod, *shared);
    Reshare(pod.node, *shared);  // its end comes from the device's tick
  } else if (ends) {
    events_.Push(now_ + *run, PodEnd{pod.id, pod.generation, pod.planned_end});
  }
}

void Engine::Handle(const PodEnd& e) {
  Pod& pod = pods_[e.pod.value()];
  if (pod.generation != e.generation) return;
  if (e.reason == EndReason::kDeleted) return EndDeleted(pod);  // DeleteGracefully
  EndPod(pod, e.reason == EndReason::kCompleted ? PodPhase::kSucceeded : PodPhase::kFailed,
         e.reason);
}

// What every ending does before the pod takes its final phase.
void Engine::Leave(Pod& pod) {
  // Killed, it ends before the end Terminate booked its lost GPU time to: give the rest back.
  if (pod.terminating && now_ < pod.kill_end) {
    if (double* booked = LossBookOf(pod.loss_book)) {
      *booked -= pod.gpus * (pod.kill_end - now_).seconds();
    }
  }
  if (pod.gang.valid()) LeaveGang(pod);
  if (pod.on_node()) ReleaseFromNode(pod);
  ClearNomination(pod);
  SetReady(pod, false);
  budgets_.AddExpected(pod.tmpl, -1);
}

void Engine::EndPod(Pod& pod, PodPhase phase, EndReason reason) {
  Leave(pod);
  pod.phase = phase;
  pod.reason = reason;
  pod.ended = now_;
  ++pod.generation;
  for (EngineObserver* o : observers_) o->OnPodEnded(now_, pod);
  PodDone(pod.id);
  const Pod copy = pod;  // the controller may submit pods, which can move pods_
  controllers_[copy.owner.value()]->OnPodEnded(*this, copy);
}

void Engine::PodDone(PodId id) {
  // Gangs read their members' records after they end (their books, the gang metrics): a
  // run releases nothing once one is declared.
  if (pods_.Done(id.value()) && config_.release_ended_pods && gangs_.empty()) {
    over_blocks_.push_back(id.value() >> PodStore::kBlockBits);
  }
}

// Between instants, so that no handler holds a reference to a released record. A released
// pod's devices' records go back to the pool, for pods bound later.
void Engine::ReleaseOverPods() {
  for (size_t b : over_blocks_) {
    const std::span<const Pod> block = pods_.block(b);
    for (EngineObserver* o : observers_) o->OnPodsReleased(block);
    for (const Pod& pod : block) {
      released_census_.Add(pod);
      device_records_.Free(pod.device_begin, pod.device_count);
    }
    pods_.Release(b);
  }
  over_blocks_.clear();
}

void Engine::ReleaseFromNode(Pod& pod) {
  FreeNode(pod);
  queue_.UnblockAll();
  NotifyAllocation();
}

void Engine::FreeNode(Pod& pod) {
  if (std::optional<uint32_t> shared = SharedDevice(pod)) {
    if (RemoveProcess(pod, *shared)) Reshare(pod.node, *shared);
  }
  if (pod.phase == PodPhase::kRunning && SetBusyOfExclusiveDevices(pod, 0)) {
    NotifyNodeGpuUse(pod.node.value());
  }
  const PodTemplate& t = templates_[pod.tmpl.value()];
  NodeInfo& info = node_info_[pod.node.value()];
  allocated_weight_ += runtimes_[pod.node.value()].Release(t.requests, DevicesOf(pod), info);
  NodeChanged(pod.node.value());
  counters_.mig_instances_destroyed += std::exchange(pod.mig_created, 0);
  if (!t.shared_claims.empty()) ReleaseSharedClaims(pod);
  UpdateMigFragmentation(pod.node.value());
  // O(1): the last bound pod takes the released one's slot.
  MIGSIM_CHECK(pod.node_slot < info.pods.size() && info.pods[pod.node_slot].id == pod.id,
               "a pod released from a node it is not bound to");
  info.pods[pod.node_slot] = info.pods.back();
  pods_[info.pods[pod.node_slot].id.value()].node_slot = pod.node_slot;
  info.pods.pop_back();
  BookTenant(pod, -1);
}

std::span<const NodeRuntime::Held> Engine::DevicesOf(const Pod& pod) const {
  return {device_records_.held.data() + pod.device_begin, pod.device_count};
}

void Engine::NotifyAllocation() {
  for (EngineObserver* o : observers_)
    o->OnGpuAllocation(now_, allocated_weight_, capacity_weight_);
}

}  // namespace migsim
