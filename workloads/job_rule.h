#pragma once
// What counts as a job in each kind of workload, for job metrics (sim/metrics/job_completion.h).

#include <span>
#include <vector>

#include "sim/metrics/job_completion.h"
#include "workloads/workload_spec.h"

namespace migsim {

// A Job: one job, completed at `completions` successes, failed past `backoff_limit`
// failures (preempted pods counted, ignored or failing it, as its podFailurePolicy says). A
// Workflow: one job, completed when every work item (a step, or each of its items) succeeded. Bare
// pods: one job of `count` pods. A trace: a job per pod. A Deployment: a service, no job.
// A DistributedJob: one job of its workers, restarted whole on a failure.
JobRule JobRuleOf(const WorkloadSpec& spec);

// One rule per workload, indexed as the engine's OwnerIds (a controller per workload).
std::vector<JobRule> JobRules(std::span<const WorkloadSpec> workloads);

}  // namespace migsim
