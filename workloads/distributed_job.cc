#include "workloads/distributed_job.h"

#include <algorithm>
#include <string>

namespace migsim {

void DistributedJob::Start(ControllerContext& ctx, OwnerId self) {
  self_ = self;
  ctx.SetTimer(spec_.at, self_, 0);
}

// The gang is declared when the job is created, not at the start of the run: a job
// created after the horizon declares none.
void DistributedJob::OnTimer(ControllerContext& ctx, uint64_t) {
  gang_ = ctx.DeclareGang(GangSpec{.min_member = static_cast<uint32_t>(spec_.workers),
                                   .schedule_timeout = spec_.schedule_timeout,
                                   .one_per_node = spec_.one_per_node,
                                   .topology_key = spec_.topology_key},
                          self_);
  if (managed()) {
    const PodSet set{spec_.tmpl, spec_.workers};
    workload_ = ctx.RequestAdmission(self_, spec_.local_queue, std::span(&set, 1));
    return;
  }
  SubmitWorkers(ctx);
}

void DistributedJob::OnAdmitted(ControllerContext& ctx, WorkloadId,
                                std::span<const TemplateId> templates) {
  tmpl_ = templates.front();
  SubmitWorkers(ctx);
}

// Its workers are deleted gracefully; they train in lockstep, so the next admission
// resumes from the checkpoint of any of them.
void DistributedJob::OnEvicted(ControllerContext& ctx, WorkloadId) {
  for (PodId id : workers_) {
    ctx.DeleteGracefully(id);
    if (ctx.pod(id).checkpoint > resume_.work) resume_ = ctx.pod(id).handover();
  }
  workers_.clear();
}

void DistributedJob::Finished(ControllerContext& ctx) {
  if (managed()) ctx.FinishWorkload(workload_);
}

// Tags number the workers of every attempt: attempt k's worker i has tag k x workers + i.
void DistributedJob::SubmitWorkers(ControllerContext& ctx) {
  workers_.clear();
  succeeded_ = 0;
  const auto first = static_cast<uint32_t>(attempts_++ * spec_.workers);
  for (int i = 0; i < spec_.workers; ++i) {
    workers_.push_back(
        ctx.SubmitToGang(tmpl_, self_, first + static_cast<uint32_t>(i), gang_, resume_));
  }
}

void DistributedJob::DeleteWorkers(ControllerContext& ctx) {
  for (PodId id : workers_) ctx.Delete(id);  // no effect on those that ended
}

void DistributedJob::OnPodEnded(ControllerContext& ctx, const Pod& pod) {
  if (pod.phase == PodPhase::kSucceeded) {
    if (++succeeded_ == spec_.workers) Finished(ctx);
    return;
  }
  // Deleted workers are not reported, so this is a worker of the current attempt. Workers
  // train in lockstep: the next attempt resumes from a killed worker's last checkpoint
  // (preempted, or hit by a fault).
  if (IsKill(pod.reason)) resume_ = pod.handover();
  ++failures_;
  DeleteWorkers(ctx);
  if (failures_ > spec_.backoff_limit) {
    failed_ = true;
    Finished(ctx);
    return;
  }
  ++restarts_;
  SubmitWorkers(ctx);
}

std::string DistributedJob::PodName(const Pod& pod) const {
  const auto workers = static_cast<uint32_t>(spec_.workers);
  const uint32_t attempt = pod.tag / workers;
  return spec_.name + "-worker-" + std::to_string(pod.tag % workers) +
         (attempt == 0 ? "" : "-restart-" + std::to_string(attempt));
}

}  // namespace migsim
