// Queue disciplines whose order depends on the cluster's state, not only on the pods:
// fair share across namespaces (DRF), and the preemptive ones (LAS, SRTF), whose ranks
// change as pods run.

#include <algorithm>

#include "sim/engine/engine.h"

namespace migsim {

// Scheduling classes never mix namespaces (the namespace is part of their key), so a
// class's group is its namespace, and a namespace's place among the groups is re-read
// whenever one of its pods binds or is released: O(log namespaces) a decision.
void Engine::SetUpDisciplines() {
  preemptive_order_ = queue_order_->Preemptive();
  if (!queue_order_->GroupsByNamespace()) return;
  int32_t namespaces = 1;
  for (const PodTemplate& t : templates_) namespaces = std::max(namespaces, t.namespace_index + 1);
  size_t classes = 0;
  for (SchedulingClassId c : template_class_) classes = std::max<size_t>(classes, c.value() + 1);
  std::vector<uint32_t> class_group(classes, 0);
  for (size_t i = 0; i < templates_.size(); ++i) {
    class_group[template_class_[i].value()] = static_cast<uint32_t>(templates_[i].namespace_index);
  }
  fair_share_ = true;
  dominant_shares_ = DominantShares(node_info_, resources_.size(), static_cast<size_t>(namespaces));
  queue_.set_groups(std::move(class_group), [this](uint32_t ns) {
    const auto index = static_cast<int32_t>(ns);
    return queue_order_->NamespaceKey(index, dominant_shares_.DominantShare(index));
  });
}

void Engine::BookTenant(const Pod& pod, int sign) {
  if (!fair_share_) return;
  const PodTemplate& t = templates_[pod.tmpl.value()];
  dominant_shares_.Add(t.namespace_index, t.requests, sign);
  queue_.Rekey(static_cast<uint32_t>(t.namespace_index));
}

// Preemptive disciplines (LAS, SRTF) reuse DefaultPreemption whole; only what it compares
// changes: the discipline's rank of each pod, now, instead of its priority.
int32_t Engine::DisciplineRank(const Pod& pod) const {
  return queue_order_->Rank(ViewOf(pod), now_);
}

// Only preemptive disciplines read these: other runs skip the work on every view.
void Engine::AddServiceTo(const Pod& pod, PodView& view) const {
  if (!preemptive_order_) return;
  view.resumed = pod.resumed;
  view.attained_gpu_s = pod.attained_gpu_s;
  if (!pod.on_node()) return;
  view.gpus = pod.gpus;
  if (pod.phase == PodPhase::kRunning && !pod.terminating) view.ran = now_ - pod.started;
  view.attained_gpu_s += pod.gpus * view.ran.seconds();
}

// A rank change is scheduled for the pod in the phase it is in; it is stale once the pod
// has left that phase (bound, evicted, ended).
void Engine::ScheduleRankChange(const Pod& pod) {
  if (!preemptive_order_) return;
  const std::optional<SimTime> at = queue_order_->NextRankChange(ViewOf(pod), now_);
  if (!at || *at <= now_ || *at == SimTime::Max()) return;
  events_.Push(*at, RankChange{pod.id, pod.generation, pod.phase == PodPhase::kRunning});
}

bool Engine::StaleRankChange(const RankChange& e) const {
  const Pod& pod = pods_[e.pod.value()];
  if (pod.generation != e.generation || pod.terminating) return true;
  return pod.phase != (e.running ? PodPhase::kRunning : PodPhase::kPending);
}

// The pod may now evict or be evicted where it could not: blocked pods get another cycle.
void Engine::Handle(const RankChange& e) {
  queue_.UnblockAll();
  ScheduleRankChange(pods_[e.pod.value()]);
}

void Engine::RecordAttained(Pod& pod) const {
  if (!preemptive_order_) return;
  PodView view{};
  AddServiceTo(pod, view);
  pod.attained_gpu_s = view.attained_gpu_s;
}

}  // namespace migsim
