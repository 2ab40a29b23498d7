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
class Job final : public Controller {
 public:
  explicit Job(JobSpec spec) : spec_(std::move(spec)) {}
  std::string name() const override { return "Job/" + spec_.name; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext& ctx, const Pod& pod) override;
  std::string PodName(const Pod& pod) const override;

  bool failed() const { return job_failed_; }
  int succeeded() const { return succeeded_; }

 private:
  static constexpr uint64_t kStart = 0;
  static constexpr uint64_t kBackoffOver = 1;
  void Pump(ControllerContext& ctx);
  // A failure that counts towards backoff_limit.
  void CountFailure(ControllerContext& ctx);
  void Fail(ControllerContext& ctx);

  JobSpec spec_;
  OwnerId self_;
  int succeeded_ = 0;
  int failed_ = 0;               // counts against backoff_limit
  int consecutive_failures_ = 0;  // since the last success: sets the back-off delay
  int backing_off_ = 0;  // failed pods whose replacement waits for its back-off
  bool job_failed_ = false;
  uint32_t next_ordinal_ = 0;
  std::vector<PodId> active_;
  // Checkpoints of preempted pods (fractions of the work) that replacements resume from.
  std::vector<double> resume_;
};

}  // namespace migsim
