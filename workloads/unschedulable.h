#pragma once
// Pod templates that no node of a scenario can ever hold, found before a run: a request
// for a resource no node offers (a typo such as nvidia.com/gpus), more CPU than any node
// has, or a selector no node matches. Such pods would only show up as "pending" at the
// end; `migsim validate` and `migsim run` warn about them instead.

#include <vector>

#include "sim/core/ids.h"
#include "sim/policy/cluster_view.h"
#include "workloads/scenario.h"

namespace migsim {

// The templates (ids into scenario.templates, in order) that fit no node alone, empty and
// as the node starts. No false alarms: nodes with a MIG reconfiguration may offer other
// resources later, so while there is one (or a policy that may repartition GPUs: param
// "dynamic" true, or a library policy) no template is reported; nor is a template that
// selects nodes by kubernetes.io/hostname.
std::vector<TemplateId> TemplatesNoNodeHolds(const Scenario& scenario);

// True when the GPU resources the nodes offer may change during a run: a MIG
// reconfiguration is scheduled, or the policy may repartition GPUs.
bool GpuResourcesMayChange(const Scenario& scenario);

// True when the template selects nodes by kubernetes.io/hostname or names one (nodeName): only
// some of a run of alike nodes match it.
bool SelectsByName(const PodTemplate& t);

// The scenario's nodes as the scheduler first sees them (empty), one per run of consecutive
// nodes alike but for their names, with the run's length: 100,000 nodes of one pool cost
// one derivation. `resources` gains the resource names the nodes offer.
struct NodeRun {
  NodeInfo node;  // the run's first node
  size_t count = 0;
};
std::vector<NodeRun> NodeRuns(const Scenario& scenario, ResourceTable& resources);

}  // namespace migsim
