#include "workloads/workflow.h"

#include <string>

namespace migsim {

Workflow::Workflow(WorkflowSpec spec) : spec_(std::move(spec)), graph_(spec_) {
  const size_t n = spec_.steps.size();
  steps_.resize(n);
  for (size_t s = 0; s < n; ++s) {
    const WorkflowStepSpec& step = spec_.steps[s];
    steps_[s].deps_left = static_cast<int>(step.depends.size());
    first_item_.push_back(static_cast<uint32_t>(item_step_.size()));
    size_t items = step.items.empty() ? 1 : step.items.size();
    steps_[s].items_left = static_cast<int>(items);
    item_step_.insert(item_step_.end(), items, static_cast<int>(s));
  }
  attempts_.assign(item_step_.size(), 0);
  steps_left_ = static_cast<int>(n);
}

void Workflow::Start(ControllerContext& ctx, OwnerId self) {
  self_ = self;
  ctx.SetTimer(spec_.at, self_, 0);
}

// Tag 0 starts the workflow; tag s + 1 makes step s ready after its delay.
void Workflow::OnTimer(ControllerContext& ctx, uint64_t tag) {
  if (phase_ == Phase::kFailed) return;
  if (tag == 0) {
    phase_ = Phase::kRunning;
    for (size_t s = 0; s < steps_.size(); ++s) {
      if (steps_[s].deps_left == 0) MakeReady(static_cast<int>(s));
    }
  } else {
    MakeReady(static_cast<int>(tag - 1));
  }
  Pump(ctx);
}

void Workflow::MakeReady(int step) {
  for (int i = 0; i < steps_[step].items_left; ++i) ready_.push_back(first_item_[step] + i);
}

void Workflow::Pump(ControllerContext& ctx) {
  while (!ready_.empty() && (spec_.parallelism == 0 || in_flight_ < spec_.parallelism)) {
    uint32_t item = ready_.front();
    ready_.pop_front();
    const TemplateId tmpl = spec_.steps[item_step_[item]].tmpl;
    const auto attained = item_attained_.find(item);
    PodId pod;
    if (attained == item_attained_.end()) {
      pod = ctx.Submit(tmpl, self_, item);
    } else {
      pod = ctx.SubmitResumed(tmpl, self_, item, Handover{.attained_gpu_s = attained->second});
      item_attained_.erase(attained);
    }
    if (attempts_[item] > 0) pod_attempt_[pod.value()] = attempts_[item];
    ++in_flight_;
  }
}

bool Workflow::ShouldRetry(int step, int attempt, EndReason reason) const {
  const RetryStrategy& retry = spec_.steps[step].retry;
  if (attempt >= retry.limit) return false;
  switch (retry.policy) {
    case RetryPolicy::kAlways: return true;
    case RetryPolicy::kOnFailure: return !IsSystemError(reason);
    case RetryPolicy::kOnError: return IsSystemError(reason);
  }
  return false;
}

void Workflow::OnPodEnded(ControllerContext& ctx, const Pod& pod) {
  --in_flight_;
  const int step = item_step_[pod.tag];
  if (phase_ == Phase::kFailed) return;
  if (pod.phase == PodPhase::kSucceeded) {
    if (--steps_[step].items_left == 0) StepSucceeded(ctx, step);
  } else if (ShouldRetry(step, attempts_[pod.tag], pod.reason)) {
    ++attempts_[pod.tag];
    if (pod.attained_gpu_s > 0) item_attained_[pod.tag] = pod.attained_gpu_s;
    ready_.push_front(pod.tag);
  } else {
    phase_ = Phase::kFailed;
    ready_.clear();
    return;
  }
  Pump(ctx);
}

void Workflow::StepSucceeded(ControllerContext& ctx, int step) {
  if (--steps_left_ == 0) phase_ = Phase::kSucceeded;
  for (int next : graph_.Dependents(step)) {
    if (--steps_[next].deps_left == 0) {
      ctx.SetTimer(ctx.now() + spec_.step_delay, self_, static_cast<uint64_t>(next) + 1);
    }
  }
}

std::string Workflow::PodName(const Pod& pod) const {
  const int step = item_step_[pod.tag];
  const WorkflowStepSpec& spec = spec_.steps[step];
  std::string name = spec_.name + "-" + spec.name;
  if (!spec.items.empty()) name += "(" + spec.items[pod.tag - first_item_[step]] + ")";
  auto retry = pod_attempt_.find(pod.id.value());
  if (retry != pod_attempt_.end()) name += "-retry" + std::to_string(retry->second);
  return name;
}

}  // namespace migsim
