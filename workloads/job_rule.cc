#include "workloads/job_rule.h"

#include <algorithm>
#include <cstdint>
#include <variant>

namespace migsim {
namespace {

// No catch-all: a new kind of workload must say what its jobs are.
struct RuleOf {
  JobRule operator()(const PodGroupSpec& s) const {
    return {JobGrouping::kWholeOwner, s.count, std::nullopt};
  }
  JobRule operator()(const DeploymentSpec&) const { return {JobGrouping::kService, 0}; }
  JobRule operator()(const JobSpec& s) const {
    return {JobGrouping::kWholeOwner, s.completions, s.backoff_limit,
            s.on_disruption == DisruptionAction::kCount,
            s.on_disruption == DisruptionAction::kFailJob};
  }
  JobRule operator()(const WorkflowSpec& s) const {
    int64_t items = 0;
    for (const WorkflowStepSpec& step : s.steps) {
      items += std::max<int64_t>(1, static_cast<int64_t>(step.items.size()));
    }
    return {JobGrouping::kWholeOwner, items, std::nullopt};
  }
  JobRule operator()(const TraceSpec&) const { return {JobGrouping::kEachPod, 1}; }
  // One job: every worker of an attempt succeeded; a failed (or preempted) worker restarts
  // the whole job, at most backoff_limit times.
  JobRule operator()(const DistributedJobSpec& s) const {
    return {JobGrouping::kWholeOwner, s.workers, s.backoff_limit};
  }
};

}  // namespace

JobRule JobRuleOf(const WorkloadSpec& spec) { return std::visit(RuleOf{}, spec); }

std::vector<JobRule> JobRules(std::span<const WorkloadSpec> workloads) {
  std::vector<JobRule> rules;
  rules.reserve(workloads.size());
  for (const WorkloadSpec& w : workloads) rules.push_back(JobRuleOf(w));
  return rules;
}

}  // namespace migsim
