#include "workloads/unschedulable.h"

#include <algorithm>

#include "sim/engine/node_runtime.h"
#include "sim/policy/cluster_view.h"

namespace migsim {

namespace {

constexpr char kHostnameLabel[] = "kubernetes.io/hostname";

// Nodes alike but for their names offer the same to every pod that does not select a
// node by name (a pool: its nodes come one after another).
bool AlikeButName(const NodeSpec& a, const NodeSpec& b) {
  return a.type == b.type && a.extra_labels == b.extra_labels && a.plugin == b.plugin &&
         a.gpus == b.gpus && a.mig_config == b.mig_config && a.mig_parted == b.mig_parted;
}

bool SelectsByName(const PodTemplate& t) {
  const auto by_name = [](const auto& entry) { return entry.first == kHostnameLabel; };
  return std::any_of(t.node_selector.begin(), t.node_selector.end(), by_name) ||
         std::any_of(t.node_affinity.begin(), t.node_affinity.end(),
                     [](const LabelIn& term) { return term.key == kHostnameLabel; });
}

// A policy that can change MIG layouts itself: one with "dynamic": true, or a library.
bool MayRepartition(const PolicySpec& policy) {
  if (!policy.library.empty()) return true;
  const auto dynamic = policy.params.find("dynamic");
  return dynamic != policy.params.end() && std::holds_alternative<bool>(dynamic->second) &&
         std::get<bool>(dynamic->second);
}

}  // namespace

std::vector<TemplateId> TemplatesNoNodeHolds(const Scenario& scenario) {
  if (!scenario.cluster.reconfigurations.empty() || MayRepartition(scenario.policy)) return {};
  // One node of each run of alike nodes, as the scheduler first sees it: the engine's own
  // derivation (100,000 nodes of one pool cost one derivation, not 100,000).
  ResourceTable resources = scenario.resources;
  std::vector<NodeInfo> nodes;
  const NodeSpec* last = nullptr;
  for (const NodeSpec& spec : scenario.cluster.nodes) {
    if (last != nullptr && AlikeButName(*last, spec)) continue;
    last = &spec;
    NodeRuntime(spec, NodeId(static_cast<NodeId::Rep>(nodes.size())), resources,
                nodes.emplace_back());
  }
  const ClusterView view(nodes, resources, SimTime::Zero());
  std::vector<TemplateId> unschedulable;
  for (size_t t = 0; t < scenario.templates.size(); ++t) {
    const PodTemplate& tmpl = scenario.templates[t];
    if (SelectsByName(tmpl)) continue;  // only some of a run's nodes would match: no claim
    const PodView pod{.id = PodId(0),
                      .requests = &tmpl.requests,
                      .node_selector = &tmpl.node_selector,
                      .node_affinity = &tmpl.node_affinity};
    bool fits = false;
    for (const NodeInfo& node : nodes) fits = fits || view.Fits(pod, node);
    if (!fits) unschedulable.push_back(TemplateId(static_cast<TemplateId::Rep>(t)));
  }
  return unschedulable;
}

}  // namespace migsim
