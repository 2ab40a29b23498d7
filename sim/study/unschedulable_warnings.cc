#include "sim/study/unschedulable_warnings.h"

#include <algorithm>
#include <map>
#include <optional>
#include <variant>

#include "workloads/gang_fit.h"
#include "workloads/unschedulable.h"

namespace migsim {
namespace {

// Workload names by the templates their pods use.
std::map<TemplateId, std::vector<std::string>> UsersOfTemplates(const Scenario& s) {
  std::map<TemplateId, std::vector<std::string>> users;
  auto add = [&](TemplateId t, const std::string& who) {
    std::vector<std::string>& names = users[t];
    if (names.empty() || names.back() != who) names.push_back(who);
  };
  for (const WorkloadSpec& w : s.workloads) {
    std::visit(
        [&](const auto& spec) {
          using T = std::decay_t<decltype(spec)>;
          if constexpr (std::is_same_v<T, WorkflowSpec>) {
            for (const WorkflowStepSpec& step : spec.steps) add(step.tmpl, spec.name);
          } else if constexpr (std::is_same_v<T, TraceSpec>) {
            for (const TraceEntry& e : spec.entries) add(e.tmpl, spec.name);
          } else {
            add(spec.tmpl, spec.name);
          }
        },
        w);
  }
  return users;
}

std::string Requests(const Scenario& s, const PodTemplate& t) {
  std::string out = "cpu " + std::to_string(t.requests.cpu_milli) + "m, memory " +
                    std::to_string(t.requests.memory_mib) + "Mi";
  for (const ResourceRequest& r : t.requests.extended) {
    out += ", " + s.resources.name(r.resource) + " " + std::to_string(r.count);
  }
  for (const auto& [key, value] : t.node_selector) out += ", node selector " + key + "=" + value;
  for (const LabelIn& term : t.node_affinity) out += ", node affinity on " + term.key;
  return out;
}

// The gangs no state of the cluster can hold (GangNeverFits) whose pods each fit some node
// (a template no node holds has its own warning). The coscheduling plugin leaves such a
// PodGroup pending and schedules the others; so does migsim.
void AddGangWarnings(const Scenario& scenario, const std::vector<TemplateId>& stuck,
                     std::vector<std::string>& warnings) {
  for (const WorkloadSpec& w : scenario.workloads) {
    const auto* job = std::get_if<DistributedJobSpec>(&w);
    if (job == nullptr || std::find(stuck.begin(), stuck.end(), job->tmpl) != stuck.end()) {
      continue;
    }
    if (const std::optional<GangFitProblem> problem = GangNeverFits(
            scenario, job->tmpl, job->workers, job->one_per_node, job->topology_key)) {
      warnings.push_back("the gang of DistributedJob " + job->name + " can never be scheduled: " +
                         problem->message + ": its pods will stay pending");
    }
  }
}

}  // namespace

std::vector<std::string> UnschedulableWarnings(const Scenario& scenario) {
  const std::vector<TemplateId> stuck = TemplatesNoNodeHolds(scenario);
  std::vector<std::string> warnings;
  AddGangWarnings(scenario, stuck, warnings);
  if (stuck.empty()) return warnings;
  const auto users = UsersOfTemplates(scenario);
  for (TemplateId t : stuck) {
    const auto it = users.find(t);
    if (it == users.end()) continue;  // a template no workload uses
    std::string who;
    for (const std::string& name : it->second) who += (who.empty() ? "" : ", ") + name;
    warnings.push_back("pods of " + who + " asking " +
                       Requests(scenario, scenario.templates[t.value()]) +
                       " fit no node: they will stay pending");
  }
  return warnings;
}

}  // namespace migsim
