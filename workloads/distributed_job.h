#pragma once
#include <span>
#include <vector>

#include "sim/engine/controller.h"
#include "workloads/workload_spec.h"

namespace migsim {

// A distributed training job, as the Kubeflow training operator (PyTorchJob) or a JobSet
// runs one: `workers` pods declared as one gang (a PodGroup with minMember = workers, the
// spec's schedule timeout, one worker per node and the topology key as the gang's
// placement constraints), so no worker runs unless all do. When a worker fails, the whole
// job restarts at once: the other workers are deleted and all are created anew, as a
// JobSet's failurePolicy does; more than `backoff_limit` failures fail the job (its live
// workers are deleted). It succeeds when all the workers of one attempt succeeded.
class DistributedJob final : public Controller {
 public:
  explicit DistributedJob(DistributedJobSpec spec) : spec_(std::move(spec)) {}
  std::string name() const override { return "DistributedJob/" + spec_.name; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext& ctx, const Pod& pod) override;
  // Kueue (DistributedJobSpec::local_queue): the job is created suspended and admitted as
  // one workload of its workers; evicted, its workers are deleted (no failure counted) and
  // it waits to be admitted again, then starts a new attempt.
  void OnAdmitted(ControllerContext& ctx, WorkloadId workload,
                  std::span<const TemplateId> templates) override;
  void OnEvicted(ControllerContext& ctx, WorkloadId workload) override;
  // "<name>-worker-<i>", then "<name>-worker-<i>-restart-<k>" after k restarts.
  std::string PodName(const Pod& pod) const override;

  bool succeeded() const { return succeeded_ == spec_.workers; }
  bool failed() const { return failed_; }
  int restarts() const { return restarts_; }

 private:
  void SubmitWorkers(ControllerContext& ctx);
  void DeleteWorkers(ControllerContext& ctx);
  bool managed() const { return spec_.local_queue >= 0; }
  void Finished(ControllerContext& ctx);

  DistributedJobSpec spec_;
  OwnerId self_;
  GangId gang_;
  std::vector<PodId> workers_;  // the current attempt's
  int succeeded_ = 0;           // workers of the current attempt that succeeded
  int failures_ = 0;            // counts against backoff_limit
  int restarts_ = 0;
  Handover resume_;  // what the next attempt starts from (a checkpoint)
  bool failed_ = false;
  TemplateId tmpl_ = spec_.tmpl;  // Kueue's flavored copy once admitted
  WorkloadId workload_;
  int attempts_ = 0;  // attempts started (restarts and readmissions): numbers the tags
};

}  // namespace migsim
