#pragma once
#include <vector>

#include "sim/engine/controller.h"
#include "workloads/workload_spec.h"

namespace migsim {

// A batch Job: runs pods until `completions` succeeded, at most `parallelism` at once.
// A failed pod is replaced after Kubernetes' back-off (10 s, 20 s, 40 s, ... capped at
// 6 min; a success resets it); when more than `backoff_limit` pods have failed the Job
// fails and its active pods are deleted. A preempted pod is handled as the Job's
// podFailurePolicy says (JobSpec::on_disruption); its replacement resumes from its last
// checkpoint.
//
// Managed by Kueue (JobSpec::local_queue): the Job is created suspended and asks for the
// admission of min(parallelism, completions) pods; once admitted it runs as above, its pods
// stamped from the template Kueue gave (the flavor's node labels added). Evicted, it is
// suspended again: its active pods are deleted (no failure counted, succeeded pods kept)
// until the next admission. Its quota is released when it completes or fails.
class Job final : public Controller {
 public:
  explicit Job(JobSpec spec) : spec_(std::move(spec)) {}
  std::string name() const override { return "Job/" + spec_.name; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext& ctx, const Pod& pod) override;
  std::string PodName(const Pod& pod) const override;
  void OnAdmitted(ControllerContext& ctx, WorkloadId workload,
                  std::span<const TemplateId> templates) override;
  void OnEvicted(ControllerContext& ctx, WorkloadId workload) override;

  bool failed() const { return job_failed_; }
  int succeeded() const { return succeeded_; }

 private:
  static constexpr uint64_t kStart = 0;
  static constexpr uint64_t kBackoffOver = 1;
  void Pump(ControllerContext& ctx);
  // A failure that counts towards backoff_limit.
  void CountFailure(ControllerContext& ctx);
  void Fail(ControllerContext& ctx);
  bool managed() const { return spec_.local_queue >= 0; }
  void Finished(ControllerContext& ctx);

  JobSpec spec_;
  OwnerId self_;
  int succeeded_ = 0;
  int failed_ = 0;                // counts against backoff_limit
  int consecutive_failures_ = 0;  // since the last success: sets the back-off delay
  int backing_off_ = 0;           // failed pods whose replacement waits for its back-off
  bool job_failed_ = false;
  uint32_t next_ordinal_ = 0;
  std::vector<PodId> active_;
  // Checkpoints of preempted pods (fractions of the work) that replacements resume from.
  std::vector<Handover> resume_;
  TemplateId tmpl_ = spec_.tmpl;  // Kueue's flavored copy once admitted
  WorkloadId workload_;
  bool suspended_ = managed();  // waiting for Kueue's admission
};

}  // namespace migsim
