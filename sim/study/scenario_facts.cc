#include "sim/study/scenario_facts.h"

#include <cstdarg>
#include <cstdio>
#include <map>
#include <variant>

#include "sim/cluster/device_plugin.h"
#include "sim/io/json_reader.h"
#include "sim/study/unschedulable_warnings.h"

namespace migsim {
namespace {

// printf into a string, for the lines `migsim validate` has always printed.
[[gnu::format(printf, 1, 2)]] std::string Format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string out(static_cast<size_t>(size > 0 ? size : 0) + 1, '\0');
  std::vsnprintf(out.data(), out.size(), format, again);
  va_end(again);
  out.pop_back();
  return out;
}

// A DRA pool advertises no extended resource: its GPUs are published in a ResourceSlice.
std::string Published(const NodeSpec& node) {
  std::string out = "DRA, " + std::to_string(node.type->gpu_count) + " GPUs in a ResourceSlice";
  if (!node.dra->dynamic_mig) return out + " (MIG devices as the config creates them)";
  return out + Format(" (dynamic MIG: instances created on allocation, %.1f s each)",
                      node.dra->mig_create.seconds());
}

std::string Advertised(const NodeSpec& node) {
  if (node.type->gpu == nullptr) return "no GPUs";
  if (node.dra) return Published(node);
  const PluginView view = DerivePluginView(*node.type->gpu, node.gpus, node.plugin);
  if (!view.healthy) return "device plugin refuses the node: " + view.error;
  std::string out;
  for (const auto& [name, count] : view.advertised) {
    out += (out.empty() ? "" : ", ") + name + ": " + std::to_string(count);
  }
  return out;
}

// Nodes with the same type, MIG config and advertisement are listed once, with a count.
std::vector<NodeGroupFacts> Nodes(const Scenario& s) {
  std::vector<NodeGroupFacts> groups;
  std::map<std::string, size_t> index;  // by the line's text
  for (const NodeSpec& n : s.cluster.nodes) {
    NodeGroupFacts g{
        .count = 0, .type = n.type->name, .mig_config = n.mig_config, .advertised = Advertised(n)};
    const std::string key =
        g.type + (g.mig_config.empty() ? "" : " [" + g.mig_config + "]") + ": " + g.advertised;
    const auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.push_back(std::move(g));
    ++groups[it->second].count;
  }
  return groups;
}

// Shared ResourceClaims: their requests and how their pods share the devices.
std::vector<std::string> SharedClaims(const Scenario& s) {
  std::vector<std::string> lines;
  for (const dra::SharedClaim& c : s.shared_claims) {
    std::string requests;
    for (const dra::DeviceRequest& r : c.claim.requests) {
      requests += (requests.empty() ? "" : ", ") + r.name;
    }
    const dra::DeviceSharing& sharing = c.sharing;
    const std::string how =
        sharing.strategy == dra::SharingStrategy::kMps
            ? "MPS, " + std::to_string(sharing.active_thread_percentage) + " % of the SMs per pod"
            : std::string("time-sliced");
    lines.push_back(c.claim.name + ": request(s) " + requests + "; " + how);
  }
  return lines;
}

// Karpenter's batching, consolidation and budgets, in its own words.
std::string KarpenterSettings(const KarpenterSpec& k) {
  std::string budgets;
  for (const DisruptionBudgetSpec& b : k.budgets) {
    if (!budgets.empty()) budgets += ", ";
    budgets += std::to_string(b.nodes) + (b.percent ? "%" : " nodes");
    if (b.reasons_mask != 0) budgets += " (some reasons)";
    if (b.schedule) {
      budgets +=
          " from '" + b.schedule->text() + "' for " + io::FormatNumber(b.duration.seconds()) + " s";
    }
  }
  return Format("batch %g s idle / %g s max, %s after %g s, budgets: %s", k.batch_idle.seconds(),
                k.batch_max.seconds(),
                k.consolidation_policy == ConsolidationPolicy::kWhenEmpty
                    ? "WhenEmpty"
                    : "WhenEmptyOrUnderutilized",
                k.consolidate_after.seconds(), budgets.empty() ? "none" : budgets.c_str());
}

// Node groups: their bounds, how they are bought and how long a node takes; then the
// provisioner's main settings.
void AddNodeGroups(const Scenario& s, VariantFacts* facts) {
  if (s.cluster.node_groups.empty()) return;
  const bool karpenter = s.cluster.provisioner == Provisioner::kKarpenter;
  facts->provisioner = karpenter ? "Karpenter" : "Cluster Autoscaler";
  for (const NodeGroupSpec& g : s.cluster.node_groups) {
    facts->node_groups.push_back(
        Format("%s: %u to %u nodes, %u at the start; %s at $%.4f/h; Ready %.0f s after launch",
               s.cluster.pools[g.pool].name.c_str(), g.min, g.max, g.initial,
               std::string(CapacityTypeName(g.capacity)).c_str(), g.price_per_hour,
               g.provisioning.seconds()));
  }
  if (karpenter) {
    facts->node_groups.push_back(KarpenterSettings(s.cluster.karpenter));
    return;
  }
  const ClusterAutoscalerSpec& ca = s.cluster.autoscaler;
  facts->node_groups.push_back(
      Format("scan every %g s, expander %s, scale-down %s (under %g utilization for %g s)",
             ca.scan_interval.seconds(), std::string(ExpanderName(ca.expander)).c_str(),
             ca.scale_down ? "on" : "off", ca.utilization_threshold, ca.unneeded_time.seconds()));
}

struct Describe {
  std::string operator()(const PodGroupSpec& w) const {
    return "Pod " + w.name + ": " + std::to_string(w.count) + " pod(s)";
  }
  std::string operator()(const DeploymentSpec& w) const {
    return "Deployment " + w.name + ": " + std::to_string(w.replicas) + " replica(s), " +
           std::to_string(w.scale.size()) + " scale event(s)";
  }
  std::string operator()(const JobSpec& w) const {
    return "Job " + w.name + ": " + std::to_string(w.completions) + " completion(s), parallelism " +
           std::to_string(w.parallelism);
  }
  std::string operator()(const WorkflowSpec& w) const {
    size_t pods = 0;
    for (const WorkflowStepSpec& step : w.steps) pods += step.items.empty() ? 1 : step.items.size();
    return "Workflow " + w.name + ": " + std::to_string(w.steps.size()) + " step(s), " +
           std::to_string(pods) + " pod(s) before retries";
  }
  std::string operator()(const TraceSpec& w) const {
    std::string text = "Trace " + w.name + ": " + std::to_string(w.entries.size()) + " pod(s)";
    if (!w.entries.empty()) {
      text += Format(", created from %g s to %g s", w.entries.front().at.seconds(),
                     w.entries.back().at.seconds());
    }
    return text;
  }
  std::string operator()(const DistributedJobSpec& w) const {
    return "DistributedJob " + w.name + ": " + std::to_string(w.workers) +
           " worker(s) as one gang" + (w.one_per_node ? ", one per node" : "") +
           (w.topology_key.empty() ? "" : ", on nodes sharing " + w.topology_key);
  }
};

}  // namespace

VariantFacts DescribeVariant(const std::string& name, const Scenario& s) {
  VariantFacts facts;
  facts.name = name;
  facts.policy = s.policy.label();
  if (!s.policy.library.empty()) facts.policy += " from " + s.policy.library;
  if (!s.policy.params_json.empty() && s.policy.params_json != "{}") {
    facts.policy += " " + s.policy.params_json;
  }
  facts.seed = s.seed;
  if (s.horizon != SimTime::Max()) facts.horizon_s = s.horizon.seconds();
  facts.nodes = Nodes(s);
  for (const Reconfiguration& r : s.cluster.reconfigurations) {
    facts.reconfigurations.push_back(Format("at %.1f s: %s relabelled %s (pending %.1f s)",
                                            r.at.seconds(), s.cluster.nodes[r.node].name.c_str(),
                                            r.mig_config.c_str(), r.duration.seconds()));
  }
  AddNodeGroups(s, &facts);
  facts.shared_claims = SharedClaims(s);
  for (const WorkloadSpec& w : s.workloads) facts.workloads.push_back(std::visit(Describe{}, w));
  facts.warnings = UnschedulableWarnings(s);
  return facts;
}

std::string FormatVariantFacts(const VariantFacts& f) {
  const std::string horizon = f.horizon_s ? Format("%g s", *f.horizon_s) : "none";
  std::string out =
      Format("variant %s (policy %s, seed %llu, horizon %s)\n  nodes:\n", f.name.c_str(),
             f.policy.c_str(), static_cast<unsigned long long>(f.seed), horizon.c_str());
  for (const NodeGroupFacts& g : f.nodes) {
    out += "    " + std::to_string(g.count) + " x " + g.type +
           (g.mig_config.empty() ? "" : " [" + g.mig_config + "]") + ": " + g.advertised + "\n";
  }
  for (const std::string& line : f.reconfigurations) out += "    " + line + "\n";
  if (!f.provisioner.empty()) out += "  node groups (" + f.provisioner + "):\n";
  for (const std::string& line : f.node_groups) out += "    " + line + "\n";
  if (!f.shared_claims.empty()) out += "  shared ResourceClaims:\n";
  for (const std::string& line : f.shared_claims) out += "    " + line + "\n";
  out += "  workloads:\n";
  for (const std::string& line : f.workloads) out += "    " + line + "\n";
  for (const std::string& warning : f.warnings) out += "  warning: " + warning + "\n";
  return out;
}

}  // namespace migsim
