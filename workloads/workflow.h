#pragma once
#include <deque>
#include <unordered_map>
#include <vector>

#include "sim/engine/controller.h"
#include "workloads/workflow_graph.h"
#include "workloads/workload_spec.h"

namespace migsim {

// An Argo-style Workflow. A step becomes ready `step_delay` after all the steps it
// depends on succeeded (the first steps start at `at`); a ready step submits one pod
// per item, at most `parallelism` pods of the workflow existing at once. A failed pod
// is retried at once while its step's retryStrategy allows (limit, and a policy that
// matches the failure); otherwise the step and the workflow fail, and no further pods
// are created (pods already running finish).
class Workflow final : public Controller {
 public:
  explicit Workflow(WorkflowSpec spec);
  std::string name() const override { return "Workflow/" + spec_.name; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext& ctx, const Pod& pod) override;
  std::string PodName(const Pod& pod) const override;

  enum class Phase { kPending, kRunning, kSucceeded, kFailed };
  Phase phase() const { return phase_; }

 private:
  struct StepState {
    int deps_left = 0;
    int items_left = 0;
  };
  // A work item is one (step, item) pair, numbered across steps.
  void MakeReady(int step);
  void Pump(ControllerContext& ctx);
  void StepSucceeded(ControllerContext& ctx, int step);
  bool ShouldRetry(int step, int attempt, EndReason reason) const;

  WorkflowSpec spec_;
  OwnerId self_;
  Phase phase_ = Phase::kPending;
  std::vector<StepState> steps_;
  WorkflowGraph graph_;  // over spec_, which it points into
  std::vector<uint32_t> first_item_;  // step -> first work item
  std::vector<int> item_step_;        // work item -> step
  std::vector<int> attempts_;         // work item -> retries so far
  std::deque<uint32_t> ready_;        // work items waiting for a parallelism slot
  std::unordered_map<PodId::Rep, int> pod_attempt_;  // retries only: pod -> attempt
  // Retries of preempted pods only: work item -> the service its evicted pod attained
  // (an Argo retry runs the step again from the start: no work is handed on).
  std::unordered_map<uint32_t, double> item_attained_;
  int in_flight_ = 0;
  int steps_left_ = 0;
};

}  // namespace migsim
