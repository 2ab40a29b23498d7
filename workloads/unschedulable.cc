#include "workloads/unschedulable.h"

#include "sim/engine/node_runtime.h"
#include "sim/policy/cluster_view.h"

namespace migsim {

std::vector<TemplateId> TemplatesNoNodeHolds(const Scenario& scenario) {
  if (!scenario.cluster.reconfigurations.empty()) return {};
  // The nodes exactly as the scheduler first sees them: the engine's own derivation.
  ResourceTable resources = scenario.resources;
  std::vector<NodeInfo> nodes(scenario.cluster.nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    NodeRuntime(scenario.cluster.nodes[i], NodeId(static_cast<NodeId::Rep>(i)), resources,
                nodes[i]);
  }
  const ClusterView view(nodes, resources, SimTime::Zero());
  std::vector<TemplateId> unschedulable;
  for (size_t t = 0; t < scenario.templates.size(); ++t) {
    const PodTemplate& tmpl = scenario.templates[t];
    const PodView pod{.id = PodId(0), .requests = &tmpl.requests,
                      .node_selector = &tmpl.node_selector, .node_affinity = &tmpl.node_affinity};
    bool fits = false;
    for (const NodeInfo& node : nodes) fits = fits || view.Fits(pod, node);
    if (!fits) unschedulable.push_back(TemplateId(static_cast<TemplateId::Rep>(t)));
  }
  return unschedulable;
}

}  // namespace migsim
