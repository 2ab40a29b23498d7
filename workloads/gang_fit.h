#pragma once
// Gangs that can never be scheduled, found before a run: a gang is all or nothing, so one
// that no state of the cluster can hold only waits to the end of the run. Such a gang is
// no input error: the coscheduling plugin leaves its PodGroup pending and schedules the
// others, and so does migsim; `validate` and `run` warn (sim/cli/unschedulable_warnings.h).

#include <optional>
#include <string>

#include "sim/core/ids.h"
#include "workloads/scenario.h"

namespace migsim {

struct GangFitProblem {
  std::string field;  // the workload field at fault: "template", "topology_key" or "workers"
  std::string message;
};

// Why `workers` pods of template `tmpl` at once (one per node with `one_per_node`; on nodes
// sharing one value of label `topology_key` unless it is empty) fit the scenario's cluster
// in no state, even empty: no node holds one, no node has the label, the workers ask for
// more of a resource than all nodes have, or fewer than `workers` fit the nodes (of one
// domain). nullopt when they may fit. No false alarms: nothing is claimed while GPU
// resources may change during the run or for a template that selects nodes by name (as
// TemplatesNoNodeHolds), and a node's share is bounded by its allocatable totals, an upper
// bound where a resource is taken per device.
std::optional<GangFitProblem> GangNeverFits(const Scenario& scenario, TemplateId tmpl, int workers,
                                            bool one_per_node, const std::string& topology_key);

}  // namespace migsim
