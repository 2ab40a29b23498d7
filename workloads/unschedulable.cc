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
         a.gpus == b.gpus && a.mig_config == b.mig_config && a.mig_parted == b.mig_parted &&
         a.taints == b.taints;
}

}  // namespace

bool SelectsByName(const PodTemplate& t) {
  const auto by_name = [](const auto& entry) { return entry.first == kHostnameLabel; };
  if (t.node_name.valid()) return true;  // bound by nodeName, not scheduled
  return std::any_of(t.node_selector.begin(), t.node_selector.end(), by_name) ||
         std::any_of(t.node_affinity.begin(), t.node_affinity.end(),
                     [](const LabelIn& term) { return term.key == kHostnameLabel; });
}

namespace {

// A policy that can change MIG layouts itself: one with "dynamic": true, or a library.
bool MayRepartition(const PolicySpec& policy) {
  if (!policy.library.empty()) return true;
  const auto dynamic = policy.params.find("dynamic");
  return dynamic != policy.params.end() && std::holds_alternative<bool>(dynamic->second) &&
         std::get<bool>(dynamic->second);
}

}  // namespace

bool GpuResourcesMayChange(const Scenario& scenario) {
  return !scenario.cluster.reconfigurations.empty() || MayRepartition(scenario.policy);
}

// The engine's own derivation of each run's first node.
std::vector<NodeRun> NodeRuns(const Scenario& scenario, ResourceTable& resources) {
  std::vector<NodeRun> runs;
  const NodeSpec* last = nullptr;
  for (const NodeSpec& spec : scenario.cluster.nodes) {
    if (last != nullptr && AlikeButName(*last, spec)) {
      ++runs.back().count;
      continue;
    }
    last = &spec;
    NodeRun& run = runs.emplace_back();
    run.count = 1;
    NodeRuntime(spec, NodeId(static_cast<NodeId::Rep>(runs.size() - 1)), resources, run.node);
  }
  return runs;
}

std::vector<TemplateId> TemplatesNoNodeHolds(const Scenario& scenario) {
  if (GpuResourcesMayChange(scenario)) return {};
  ResourceTable resources = scenario.resources;
  std::vector<NodeInfo> nodes;
  for (NodeRun& run : NodeRuns(scenario, resources)) nodes.push_back(std::move(run.node));
  const ClusterView view(nodes, resources, SimTime::Zero());
  std::vector<TemplateId> unschedulable;
  for (size_t t = 0; t < scenario.templates.size(); ++t) {
    const PodTemplate& tmpl = scenario.templates[t];
    if (SelectsByName(tmpl)) continue;  // only some of a run's nodes would match: no claim
    const PodView pod{.id = PodId(0),
                      .requests = &tmpl.requests,
                      .node_selector = &tmpl.node_selector,
                      .node_affinity = &tmpl.node_affinity,
                      .tolerations = &tmpl.tolerations};
    bool fits = false;
    for (const NodeInfo& node : nodes) fits = fits || view.Fits(pod, node);
    if (!fits) unschedulable.push_back(TemplateId(static_cast<TemplateId::Rep>(t)));
  }
  return unschedulable;
}

}  // namespace migsim
