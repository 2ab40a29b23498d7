#include "sim/cli/validate_command.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <variant>

#include "sim/cli/failure.h"
#include "sim/cli/unschedulable_warnings.h"
#include "sim/cluster/device_plugin.h"
#include "sim/io/json_reader.h"
#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// A DRA pool advertises no extended resource: its GPUs are published in a ResourceSlice.
std::string Published(const NodeSpec& node) {
  std::string out = "DRA, " + std::to_string(node.type->gpu_count) + " GPUs in a ResourceSlice";
  if (!node.dra->dynamic_mig) return out + " (MIG devices as the config creates them)";
  char create[32];
  std::snprintf(create, sizeof create, "%.1f", node.dra->mig_create.seconds());
  return out + " (dynamic MIG: instances created on allocation, " + create + " s each)";
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
// Shared ResourceClaims: their requests and how their pods share the devices.
void PrintSharedClaims(const Scenario& s) {
  if (s.shared_claims.empty()) return;
  std::printf("  shared ResourceClaims:\n");
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
    std::printf("    %s: request(s) %s; %s\n", c.claim.name.c_str(), requests.c_str(), how.c_str());
  }
}

void PrintNodes(const Scenario& s) {
  std::map<std::string, int> groups;
  std::vector<std::string> order;
  for (const NodeSpec& n : s.cluster.nodes) {
    const std::string key = n.type->name + (n.mig_config.empty() ? "" : " [" + n.mig_config + "]") +
                            ": " + Advertised(n);
    if (groups[key]++ == 0) order.push_back(key);
  }
  for (const std::string& key : order) std::printf("    %d x %s\n", groups[key], key.c_str());
  for (const Reconfiguration& r : s.cluster.reconfigurations) {
    std::printf("    at %.1f s: %s relabelled %s (pending %.1f s)\n", r.at.seconds(),
                s.cluster.nodes[r.node].name.c_str(), r.mig_config.c_str(), r.duration.seconds());
  }
}

// Karpenter's batching, consolidation and budgets, in its own words.
void PrintKarpenter(const KarpenterSpec& k) {
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
  std::printf("    batch %g s idle / %g s max, %s after %g s, budgets: %s\n",
              k.batch_idle.seconds(), k.batch_max.seconds(),
              k.consolidation_policy == ConsolidationPolicy::kWhenEmpty
                  ? "WhenEmpty"
                  : "WhenEmptyOrUnderutilized",
              k.consolidate_after.seconds(), budgets.empty() ? "none" : budgets.c_str());
}

// Node groups: their bounds, how they are bought and how long a node takes; then the
// provisioner's main settings.
void PrintNodeGroups(const Scenario& s) {
  if (s.cluster.node_groups.empty()) return;
  const bool karpenter = s.cluster.provisioner == Provisioner::kKarpenter;
  std::printf("  node groups (%s):\n", karpenter ? "Karpenter" : "Cluster Autoscaler");
  for (const NodeGroupSpec& g : s.cluster.node_groups) {
    std::printf(
        "    %s: %u to %u nodes, %u at the start; %s at $%.4f/h; Ready %.0f s after launch\n",
        s.cluster.pools[g.pool].name.c_str(), g.min, g.max, g.initial,
        std::string(CapacityTypeName(g.capacity)).c_str(), g.price_per_hour,
        g.provisioning.seconds());
  }
  if (karpenter) return PrintKarpenter(s.cluster.karpenter);
  const ClusterAutoscalerSpec& ca = s.cluster.autoscaler;
  std::printf("    scan every %g s, expander %s, scale-down %s (under %g utilization for %g s)\n",
              ca.scan_interval.seconds(), std::string(ExpanderName(ca.expander)).c_str(),
              ca.scale_down ? "on" : "off", ca.utilization_threshold, ca.unneeded_time.seconds());
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
      char span[64];
      std::snprintf(span, sizeof span, ", created from %g s to %g s",
                    w.entries.front().at.seconds(), w.entries.back().at.seconds());
      text += span;
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

int ValidateCommand(const std::string& path, const std::vector<std::string>& manifests) {
  Result<ScenarioFile> loaded = LoadScenarioFile(path, {.extra_manifests = manifests});
  if (!loaded.ok()) {
    return Fail(loaded.status(), kBadInput);
  }
  const ScenarioFile& file = loaded.value();
  std::printf("%s: valid. %s\n", file.path.c_str(), file.name.c_str());
  if (!file.warnings.empty()) std::printf("\nmanifest fields migsim does not model:\n");
  for (const std::string& warning : file.warnings) {
    std::printf("  warning: %s\n", warning.c_str());
  }
  for (const auto& [name, s] : file.variants) {
    char horizon[32] = "none";
    if (s.horizon != SimTime::Max())
      std::snprintf(horizon, sizeof horizon, "%g s", s.horizon.seconds());
    std::string policy = s.policy.label();
    if (!s.policy.library.empty()) policy += " from " + s.policy.library;
    if (!s.policy.params_json.empty() && s.policy.params_json != "{}") {
      policy += " " + s.policy.params_json;
    }
    std::printf("\nvariant %s (policy %s, seed %llu, horizon %s)\n", name.c_str(), policy.c_str(),
                static_cast<unsigned long long>(s.seed), horizon);
    std::printf("  nodes:\n");
    PrintNodes(s);
    PrintNodeGroups(s);
    PrintSharedClaims(s);
    std::printf("  workloads:\n");
    for (const WorkloadSpec& w : s.workloads) {
      std::printf("    %s\n", std::visit(Describe{}, w).c_str());
    }
    for (const std::string& warning : UnschedulableWarnings(s)) {
      std::printf("  warning: %s\n", warning.c_str());
    }
  }
  return 0;
}

}  // namespace migsim
