#include "sim/engine/engine.h"

#include "sim/core/check.h"

namespace migsim {

Engine::Engine(EngineInputs inputs, Policy& policy, EngineConfig config)
    : cluster_(inputs.cluster),
      resources_(std::move(inputs.resources)),
      job_classes_(std::move(inputs.job_classes)),
      templates_(std::move(inputs.templates)),
      controllers_(std::move(inputs.controllers)),
      policy_(&policy),
      config_(config),
      rng_(config.seed) {
  const size_t n = cluster_->nodes.size();
  node_info_.resize(n);
  runtimes_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    runtimes_.emplace_back(cluster_->nodes[i], NodeId(static_cast<NodeId::Rep>(i)), resources_,
                           node_info_[i]);
    capacity_weight_ += runtimes_.back().capacity_weight();
    allocated_weight_ += runtimes_.back().allocated_weight();
  }
  AssignSchedulingClasses();
}

void Engine::AssignSchedulingClasses() {
  // Pods of templates with equal requests and selectors are interchangeable to the
  // scheduler: one class, one blocked flag.
  std::vector<size_t> representative;  // class -> first template of the class
  for (size_t t = 0; t < templates_.size(); ++t) {
    size_t klass = representative.size();
    for (size_t c = 0; c < representative.size(); ++c) {
      const PodTemplate& r = templates_[representative[c]];
      if (r.requests == templates_[t].requests && r.node_selector == templates_[t].node_selector) {
        klass = c;
        break;
      }
    }
    if (klass == representative.size()) representative.push_back(t);
    template_class_.emplace_back(static_cast<SchedulingClassId::Rep>(klass));
  }
  queue_ = SchedulingQueue(representative.size());
}

void Engine::Run() {
  for (size_t i = 0; i < controllers_.size(); ++i) {
    controllers_[i]->Start(*this, OwnerId(static_cast<OwnerId::Rep>(i)));
  }
  for (size_t i = 0; i < cluster_->reconfigurations.size(); ++i) {
    events_.Push(cluster_->reconfigurations[i].at, ReconfigureBegin{static_cast<uint32_t>(i)});
  }
  NotifyAllocation();
  ScheduleCycle();
  while (std::optional<SimTime> next = events_.NextTime()) {
    if (Stale(events_.Top().payload)) {
      events_.Pop();
      continue;
    }
    // Max() is "never" (a saturated duration): such events do not run.
    if (*next > config_.horizon || *next == SimTime::Max()) break;
    MIGSIM_CHECK(*next >= now_, "time never goes backwards");
    now_ = *next;
    while (events_.NextTime() == now_) {
      const Event event = events_.Pop().payload;
      if (!Stale(event)) std::visit([this](const auto& e) { Handle(e); }, event);
    }
    ScheduleCycle();
  }
  // With a horizon the run reports the cluster as it stands then; the state does not
  // change between the last event and the horizon.
  if (config_.horizon != SimTime::Max()) now_ = config_.horizon;
}

PodId Engine::Submit(TemplateId tmpl, OwnerId owner, uint32_t tag) {
  PodId id(static_cast<PodId::Rep>(pods_.size()));
  Pod& pod = pods_.emplace_back();
  pod.id = id;
  pod.owner = owner;
  pod.tag = tag;
  pod.tmpl = tmpl;
  pod.created = now_;
  queue_.Push(id, template_class_[tmpl.value()]);
  for (EngineObserver* o : observers_) o->OnPodSubmitted(now_, pod);
  return id;
}

void Engine::Delete(PodId id) {
  Pod& pod = pods_[id.value()];
  if (pod.ended_already()) return;
  if (pod.on_node()) ReleaseFromNode(pod);
  // A pending pod stays in the scheduling queue until the queue reaches it and drops it.
  pod.phase = PodPhase::kDeleted;
  pod.reason = EndReason::kDeleted;
  pod.ended = now_;
  ++pod.generation;
  for (EngineObserver* o : observers_) o->OnPodEnded(now_, pod);
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
  pod.phase = PodPhase::kRunning;
  if (!pod.has_started) pod.started = now_;
  pod.has_started = true;
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
  SetBusyOfExclusiveDevices(pod, DutyCycleOf(pod));
  if (std::optional<uint32_t> shared = SharedDevice(pod)) {
    runtimes_[pod.node.value()].AddProcess(*shared, pod.id);
    Reshare(pod.node, *shared);  // its end comes from the device's tick
  } else if (ends) {
    events_.Push(now_ + *run, PodEnd{pod.id, pod.generation, pod.planned_end});
  }
}

void Engine::Handle(const PodEnd& e) {
  Pod& pod = pods_[e.pod.value()];
  if (pod.generation != e.generation) return;
  EndPod(pod, e.reason == EndReason::kCompleted ? PodPhase::kSucceeded : PodPhase::kFailed,
         e.reason);
}

void Engine::EndPod(Pod& pod, PodPhase phase, EndReason reason) {
  if (pod.on_node()) ReleaseFromNode(pod);
  pod.phase = phase;
  pod.reason = reason;
  pod.ended = now_;
  ++pod.generation;
  for (EngineObserver* o : observers_) o->OnPodEnded(now_, pod);
  const Pod copy = pod;  // the controller may submit pods, which can move pods_
  controllers_[copy.owner.value()]->OnPodEnded(*this, copy);
}

void Engine::ReleaseFromNode(Pod& pod) {
  if (std::optional<uint32_t> shared = SharedDevice(pod)) {
    if (runtimes_[pod.node.value()].RemoveProcess(*shared, pod.id)) Reshare(pod.node, *shared);
  }
  if (pod.phase == PodPhase::kRunning) SetBusyOfExclusiveDevices(pod, 0);
  const PodTemplate& t = templates_[pod.tmpl.value()];
  allocated_weight_ +=
      runtimes_[pod.node.value()].Release(t.requests, DevicesOf(pod), node_info_[pod.node.value()]);
  queue_.UnblockAll();
  NotifyAllocation();
}

std::span<const NodeRuntime::Held> Engine::DevicesOf(const Pod& pod) const {
  return {allocation_pool_.data() + pod.device_begin, pod.device_count};
}

void Engine::NotifyAllocation() {
  for (EngineObserver* o : observers_)
    o->OnGpuAllocation(now_, allocated_weight_, capacity_weight_);
}

}  // namespace migsim
