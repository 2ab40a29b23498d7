#include "workloads/gang_fit.h"

#include <algorithm>
#include <map>

#include "sim/policy/gang_constraint.h"
#include "workloads/unschedulable.h"

namespace migsim {
namespace {

constexpr char kHostnameLabel[] = "kubernetes.io/hostname";

// How many pods of `req` an empty node holds by its allocatable totals, at most `cap`.
int64_t PodsPerNode(const PodRequests& req, const NodeInfo& node, int64_t cap) {
  int64_t most = cap;
  if (req.cpu_milli > 0) most = std::min(most, node.cpu_milli_allocatable / req.cpu_milli);
  if (req.memory_mib > 0) most = std::min(most, node.memory_mib_allocatable / req.memory_mib);
  for (const ResourceRequest& r : req.extended) {
    most = std::min<int64_t>(most, node.Allocatable(r.resource) / r.count);
  }
  return most;
}

std::string Count(int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The first resource the workers together ask more of than all the nodes have.
std::optional<std::string> ResourceShortfall(const std::vector<NodeRun>& runs, const PodTemplate& t,
                                             const ResourceTable& names, int workers) {
  for (const ResourceRequest& r : t.requests.extended) {
    int64_t have = 0;
    for (const NodeRun& run : runs) {
      have += static_cast<int64_t>(run.count) * run.node.Allocatable(r.resource);
    }
    const int64_t need = int64_t{workers} * r.count;
    if (need > have) {
      const std::string& name = names.name(r.resource);
      return Count(workers, "worker", "workers") + " x " + std::to_string(r.count) + " " + name +
             " = " + std::to_string(need) + " " + name + ", more than the cluster's " +
             std::to_string(have);
    }
  }
  return std::nullopt;
}

std::string TooFewMessage(int workers, int64_t best, bool one_per_node, const std::string& key) {
  const std::string where = key.empty() ? "" : " sharing a value of label '" + key + "'";
  if (one_per_node) {
    return Count(workers, "worker", "workers") + ", one per node, but " +
           (key.empty() ? "only " : "at most ") + Count(best, "node", "nodes") + where +
           " can hold one";
  }
  return Count(workers, "worker", "workers") + ", but the nodes" + where + " hold at most " +
         std::to_string(best) + " of them";
}

}  // namespace

std::optional<GangFitProblem> GangNeverFits(const Scenario& scenario, TemplateId tmpl, int workers,
                                            bool one_per_node, const std::string& topology_key) {
  const PodTemplate& t = scenario.templates[tmpl.value()];
  if (GpuResourcesMayChange(scenario) || SelectsByName(t)) return std::nullopt;
  ResourceTable resources = scenario.resources;
  const std::vector<NodeRun> runs = NodeRuns(scenario, resources);
  const ClusterView view({}, resources, SimTime::Zero());
  const PodView pod{.id = PodId(0),
                    .requests = &t.requests,
                    .node_selector = &t.node_selector,
                    .node_affinity = &t.node_affinity,
                    .tolerations = &t.tolerations};
  // Workers each domain holds: one domain ("") without a topology key; with the hostname
  // as the key each node is a domain of its own.
  std::map<std::string, int64_t> holds;
  bool any_fits = false, labelled = topology_key.empty();
  for (const NodeRun& run : runs) {
    const std::string* domain = FindLabel(run.node.labels, topology_key);
    labelled = labelled || domain != nullptr;
    if (!view.Fits(pod, run.node)) continue;
    any_fits = true;
    if (!topology_key.empty() && domain == nullptr) continue;
    const int64_t each = one_per_node ? 1 : PodsPerNode(t.requests, run.node, workers);
    if (topology_key == kHostnameLabel) {
      holds[""] = std::max(holds[""], each);
    } else {
      holds[topology_key.empty() ? "" : *domain] += each * static_cast<int64_t>(run.count);
    }
  }
  if (!any_fits) return GangFitProblem{"template", "no node can hold one worker"};
  if (!labelled) {
    return GangFitProblem{"topology_key", "no node has the label '" + topology_key + "'"};
  }
  if (auto shortfall = ResourceShortfall(runs, t, resources, workers)) {
    return GangFitProblem{"workers", *shortfall};
  }
  int64_t best = 0;
  for (const auto& [domain, count] : holds) best = std::max(best, count);
  if (best >= workers) return std::nullopt;
  return GangFitProblem{"workers", TooFewMessage(workers, best, one_per_node, topology_key)};
}

}  // namespace migsim
