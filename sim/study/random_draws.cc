#include "sim/study/random_draws.h"

#include <algorithm>
#include <variant>

#include "policies/registry.h"
#include "sim/core/text.h"

namespace migsim {
namespace {

// A pod that may evict lower priorities and a pod of a lower priority: kube-scheduler's
// preemption dry run then starts at a random node (Engine::FindCandidates), which only
// matters when there is more than one node to start at.
bool MayPreemptAmongNodes(const Scenario& scenario) {
  if (scenario.cluster.nodes.size() < 2 || scenario.templates.empty()) return false;
  int32_t lowest = scenario.templates.front().priority;
  for (const PodTemplate& t : scenario.templates) lowest = std::min(lowest, t.priority);
  return std::any_of(scenario.templates.begin(), scenario.templates.end(),
                     [&](const PodTemplate& t) { return t.preempts && t.priority > lowest; });
}

// Job classes whose runs may fail at random, and that some template runs.
void AddFailingJobClasses(const Scenario& scenario, std::vector<std::string>* out) {
  for (size_t i = 0; i < scenario.job_classes.size(); ++i) {
    const JobClass& c = scenario.job_classes[i];
    if (c.failure_probability <= 0) continue;
    const bool used = std::any_of(
        scenario.templates.begin(), scenario.templates.end(), [&](const PodTemplate& t) {
          return t.job_class.valid() && t.job_class.value() == static_cast<uint32_t>(i);
        });
    if (used) out->push_back("job class '" + c.name + "' (failure_probability)");
  }
}

}  // namespace

std::vector<std::string> RandomSources(const Scenario& scenario) {
  std::vector<std::string> out;
  for (const WorkloadSpec& w : scenario.workloads) {
    const auto* trace = std::get_if<TraceSpec>(&w);
    if (trace != nullptr && trace->arrivals) out.push_back("Arrivals workload '" + trace->name + "'");
  }
  AddFailingJobClasses(scenario, &out);
  const ClusterSpec& cluster = scenario.cluster;
  for (const Fault& f : cluster.faults) {
    if (f.target.drawn) {
      out.push_back("the fault at " + FormatFixed(f.at.seconds(), 0) + " s (its target is drawn)");
    }
  }
  for (const FaultProcess& p : cluster.fault_processes) {
    out.push_back("fault process '" + p.name + "'");
  }
  if (cluster.node_groups.size() > 1) out.push_back("the autoscaler's choice among node groups");
  if (MayPreemptAmongNodes(scenario)) out.push_back("the preemption dry run's first node");
  // A policy given its own seed keeps its stream whatever the run's (scenario_json.cc).
  const PolicySpec& policy = scenario.policy;
  if (PolicyDrawsAtRandom(policy) &&
      policy.Integer(std::string(kPolicySeedParam)) == static_cast<int64_t>(scenario.seed)) {
    out.push_back("policy '" + policy.name + "'");
  }
  return out;
}

std::string SeedChangesNothing(const ScenarioFile& file, const std::string& seeds,
                               const std::vector<std::string>& names) {
  for (const auto& [name, scenario] : file.variants) {
    const bool wanted = names.empty() || std::find(names.begin(), names.end(), name) != names.end();
    if (wanted && !RandomSources(scenario).empty()) return "";
  }
  return seeds + " changes nothing: scenario '" + file.name +
         "' draws nothing at random (no Arrivals workload, failing job class, fault drawn or "
         "fault process, random policy, tie among node groups or preemption among nodes)";
}

}  // namespace migsim
