#include "workloads/job.h"

#include <algorithm>
#include <string>

#include "sim/engine/backoff.h"

namespace migsim {

void Job::Start(ControllerContext& ctx, OwnerId self) {
  self_ = self;
  ctx.SetTimer(spec_.at, self_, kStart);
}

// Tag kStart starts the Job (a managed one asks Kueue first); tag kBackoffOver ends one
// failed pod's back-off.
void Job::OnTimer(ControllerContext& ctx, uint64_t tag) {
  if (tag == kStart && managed()) {
    // Kueue's Job integration: the PodSet's count is parallelism, at most completions.
    const PodSet set{spec_.tmpl, std::min(spec_.parallelism, spec_.completions)};
    workload_ = ctx.RequestAdmission(self_, spec_.local_queue, std::span(&set, 1));
    return;
  }
  if (tag == kBackoffOver) --backing_off_;
  Pump(ctx);
}

void Job::OnAdmitted(ControllerContext& ctx, WorkloadId, std::span<const TemplateId> templates) {
  suspended_ = false;
  tmpl_ = templates.front();
  Pump(ctx);
}

// Suspended: its pods are deleted gracefully, and what their checkpoints kept goes to the
// pods of its next admission.
void Job::OnEvicted(ControllerContext& ctx, WorkloadId) {
  suspended_ = true;
  for (PodId id : active_) {
    ctx.DeleteGracefully(id);
    if (ctx.pod(id).checkpoint > 0) resume_.push_back(ctx.pod(id).handover());
  }
  active_.clear();
}

void Job::Finished(ControllerContext& ctx) {
  if (managed()) ctx.FinishWorkload(workload_);
}

void Job::Pump(ControllerContext& ctx) {
  if (job_failed_ || suspended_) return;
  // A failed pod's replacement keeps its slot until its back-off is over.
  auto busy = [this] { return static_cast<int>(active_.size()) + backing_off_; };
  while (busy() < spec_.parallelism && succeeded_ + busy() < spec_.completions) {
    if (resume_.empty()) {
      active_.push_back(ctx.Submit(tmpl_, self_, next_ordinal_++));
    } else {
      active_.push_back(ctx.SubmitResumed(tmpl_, self_, next_ordinal_++, resume_.back()));
      resume_.pop_back();
    }
  }
}

void Job::OnPodEnded(ControllerContext& ctx, const Pod& pod) {
  active_.erase(std::find(active_.begin(), active_.end(), pod.id));
  if (job_failed_) return;
  if (pod.phase == PodPhase::kSucceeded) {
    ++succeeded_;
    consecutive_failures_ = 0;  // Kubernetes resets the back-off after a success
    if (succeeded_ == spec_.completions) Finished(ctx);
    Pump(ctx);
    return;
  }
  // A killed pod hands what its checkpoints kept (and its service, for LAS) to the next
  // pod the Job creates.
  if (IsKill(pod.reason)) resume_.push_back(pod.handover());
  if (IsDisruption(pod.reason)) {
    if (spec_.on_disruption == DisruptionAction::kIgnore) return Pump(ctx);
    if (spec_.on_disruption == DisruptionAction::kFailJob) return Fail(ctx);
  }
  CountFailure(ctx);
}

void Job::CountFailure(ControllerContext& ctx) {
  ++failed_;
  ++consecutive_failures_;
  if (failed_ > spec_.backoff_limit) return Fail(ctx);  // BackoffLimitExceeded
  ++backing_off_;
  ctx.SetTimer(ctx.now() + ExponentialBackoff(consecutive_failures_, SimTime::Seconds(360)), self_,
               kBackoffOver);
}

// The Job terminates its active pods.
void Job::Fail(ControllerContext& ctx) {
  job_failed_ = true;
  for (PodId id : std::vector<PodId>(active_)) ctx.Delete(id);
  active_.clear();
  Finished(ctx);
}

std::string Job::PodName(const Pod& pod) const {
  return spec_.name + "-" + std::to_string(pod.tag);
}

}  // namespace migsim
