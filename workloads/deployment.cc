#include "workloads/deployment.h"

#include <algorithm>
#include <string>

#include "sim/engine/backoff.h"

namespace migsim {

void Deployment::Start(ControllerContext& ctx, OwnerId self) {
  self_ = self;
  ctx.SetTimer(spec_.at, self_, 0);
  for (size_t i = 0; i < spec_.scale.size(); ++i) ctx.SetTimer(spec_.scale[i].at, self_, i + 1);
}

void Deployment::OnTimer(ControllerContext& ctx, uint64_t tag) {
  if (tag != kReconcile) desired_ = tag == 0 ? spec_.replicas : spec_.scale[tag - 1].replicas;
  Reconcile(ctx);
}

void Deployment::Reconcile(ControllerContext& ctx) {
  const size_t desired = static_cast<size_t>(desired_);
  while (live_.size() < desired) {
    if (handovers_.empty()) {
      live_.push_back(ctx.Submit(spec_.tmpl, self_, next_ordinal_++));
    } else {
      live_.push_back(ctx.SubmitResumed(spec_.tmpl, self_, next_ordinal_++, handovers_.back()));
      handovers_.pop_back();
    }
  }
  handovers_.clear();  // replicas scaled away are not recreated
  if (live_.size() > desired) ScaleDown(ctx, live_.size() - desired);
}

void Deployment::ScaleDown(ControllerContext& ctx, size_t surplus) {
  // Victims as the ReplicaSet controller ranks them: unbound before bound, not ready
  // (starting, or crash-looping) before running, more restarts first, then newer first.
  auto readiness = [&](PodId id) {
    const PodPhase phase = ctx.pod(id).phase;
    return phase == PodPhase::kPending ? 0 : phase == PodPhase::kStarting ? 1 : 2;
  };
  std::vector<PodId> order(live_.rbegin(), live_.rend());
  std::stable_sort(order.begin(), order.end(), [&](PodId a, PodId b) {
    if (readiness(a) != readiness(b)) return readiness(a) < readiness(b);
    return ctx.pod(a).restarts > ctx.pod(b).restarts;
  });
  order.resize(surplus);
  for (PodId id : order) ctx.Delete(id);
  // One pass, not a find per victim: scaling 100k replicas to 0 stays linear.
  live_.erase(std::remove_if(live_.begin(), live_.end(),
                             [&](PodId id) { return ctx.pod(id).ended_already(); }),
              live_.end());
}

void Deployment::Forget(PodId pod) { live_.erase(std::find(live_.begin(), live_.end(), pod)); }

void Deployment::OnPodEnded(ControllerContext& ctx, const Pod& pod) {
  Forget(pod.id);
  // A disrupted pod (preempted, evicted, on a lost node) was deleted, not crashed: its
  // ReplicaSet creates a replacement at once.
  if (IsDisruption(pod.reason)) {
    handovers_.push_back(Handover{.attained_gpu_s = pod.attained_gpu_s});
    Reconcile(ctx);
    return;
  }
  ++failures_;  // Deployment pods never succeed: ending is failing
  SimTime delay =
      failures_ == 1 ? SimTime::Zero() : ExponentialBackoff(failures_ - 1, SimTime::Seconds(300));
  ctx.SetTimer(ctx.now() + delay, self_, kReconcile);
}

std::string Deployment::PodName(const Pod& pod) const {
  return spec_.name + "-" + std::to_string(pod.tag);
}

}  // namespace migsim
