// `migsim import`, nodes: each node of `kubectl get nodes -o json` described as a node pool
// would describe it (type, MIG, device plugin, taints, labels), and identical nodes grouped
// into one pool.

#include <algorithm>
#include <array>
#include <string_view>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_config.h"
#include "sim/cluster/node_type.h"
#include "sim/io/k8s/snapshot_model.h"
#include "sim/io/quantity.h"

namespace migsim::k8s {
namespace {

// What a node of the snapshot is, read from its labels and status.
struct NodeFacts {
  std::string name;
  Labels labels;
  int64_t cpu_milli = 0, memory_mib = 0;
  SnapshotGpus gpus;
};

std::string InstanceType(const Labels& labels) {
  std::string type = LabelValue(labels, "node.kubernetes.io/instance-type");
  return type.empty() ? LabelValue(labels, "beta.kubernetes.io/instance-type") : type;
}

int64_t Quantity(const ManifestNode& node, Result<int64_t> (*parse)(std::string_view),
                 ManifestLog* log) {
  if (!node.present()) return 0;
  Result<int64_t> parsed = parse(node.String(log));
  if (!log->ok()) return 0;
  if (!parsed.ok()) node.Fail(log, parsed.status().message());
  return parsed.ok() ? parsed.value() : 0;
}

// Cordoned and NotReady nodes are left out, with the pods bound to them: the scheduler
// places nothing there, so the snapshot's schedulable cluster is the rest.
bool Usable(const ManifestNode& item, const std::string& name, ManifestLog* log) {
  if (const ManifestNode cordon = item["spec"]["unschedulable"]; cordon.Bool(log, false)) {
    cordon.Warn(log, "node '" + name + "' is cordoned: left out, with the pods bound to it");
    return false;
  }
  const ManifestNode conditions = item["status"]["conditions"];
  for (const ManifestNode& c : conditions.Elements(log)) {
    if (c["type"].String(log) == "Ready" && c["status"].String(log) != "True") {
      c.Warn(log, "node '" + name + "' is not Ready: left out, with the pods bound to it");
      return false;
    }
  }
  return true;
}

NodeFacts ReadFacts(const ManifestNode& item, ManifestLog* log) {
  NodeFacts f;
  f.name = item["metadata"]["name"].String(log);
  f.labels = item["metadata"]["labels"].StringMap(log);
  const ManifestNode allocatable = item["status"]["allocatable"];
  f.cpu_milli = Quantity(allocatable["cpu"], &io::ParseCpuMilli, log);
  f.memory_mib = Quantity(allocatable["memory"], &io::ParseMemoryMib, log);
  return f;
}

// A catalog type when the instance type is one and agrees with the node's GPUs; else a
// custom type from the node's allocatable CPU and memory and its GPUs.
std::string NodeTypeOf(const NodeFacts& f, SnapshotCluster* out) {
  const std::string instance = InstanceType(f.labels);
  const int gpus = f.gpus.gpus;
  if (const NodeType* t = FindNodeType(instance);
      t != nullptr && t->gpu_count == gpus && (gpus == 0 || t->gpu == f.gpus.model)) {
    return instance;
  }
  OrderedJson type = {
      {"vcpu", std::max<int64_t>(1, f.cpu_milli / 1000)},
      {"memory_gib", static_cast<double>(std::max<int64_t>(1, f.memory_mib)) / 1024}};
  if (gpus > 0) type["gpus"] = gpus, type["gpu_model"] = f.gpus.model->name;
  std::string base = instance.empty() || FindNodeType(instance) != nullptr
                         ? (instance.empty() ? "custom" : instance + "-custom")
                         : instance;
  std::string name = base;
  for (int i = 2; out->node_types.contains(name) && out->node_types[name] != type; ++i) {
    name = base + "-" + std::to_string(i);
  }
  out->node_types[name] = std::move(type);
  return name;
}

OrderedJson TaintsJson(const ManifestNode& taints, ManifestLog* log) {
  OrderedJson out = OrderedJson::array();
  for (const ManifestNode& t : taints.Elements(log)) {
    const std::string key = t["key"].String(log);
    // The node lifecycle controller's taints (not-ready, unschedulable, ...) come and go
    // with the node's state, which a left-out node already reflects.
    if (key.starts_with("node.kubernetes.io/")) continue;
    // What the scenario's loader would refuse is refused here, at the snapshot's path.
    if (key.empty()) t.Fail(log, "a taint needs a key");
    if (!t["effect"].present()) t.Fail(log, "missing required field 'effect'");
    if (!log->ok()) break;
    static constexpr std::array<std::string_view, 3> kEffects = {"NoSchedule", "PreferNoSchedule",
                                                                 "NoExecute"};
    const size_t effect =
        t["effect"].Choice(log, "taint effect", {kEffects[0], kEffects[1], kEffects[2]});
    OrderedJson one = {{"key", key}};
    if (const std::string v = t["value"].String(log); !v.empty()) one["value"] = v;
    one["effect"] = kEffects[effect];
    out.push_back(std::move(one));
  }
  return out;
}

// GPU Feature Discovery's and the GPU operator's labels that describe the GPUs' partitioning
// and sharing, which migsim's device plugin model sets on every node itself from the pool's
// `mig` and `device_plugin` (DerivePluginView) and changes when they change (a relabel);
// and the two that change on their own: GFD's timestamp and the operator's gpu.deploy.*
// switches, which it pauses during a MIG change (domain.md §4.1).
bool GpuStateLabel(std::string_view key) {
  static constexpr std::array<std::string_view, 9> kGpu = {
      "product", "count",          "memory", "replicas", "sharing-strategy",
      "multiprocessors", "slices.", "engines.", "deploy."};
  if (key.starts_with("nvidia.com/mig.") || key.starts_with("nvidia.com/mig-") ||
      key == "nvidia.com/mps.capable" || key == "nvidia.com/gfd.timestamp") {
    return true;
  }
  if (!key.starts_with("nvidia.com/gpu.")) return false;
  const std::string_view rest = key.substr(std::string_view("nvidia.com/gpu.").size());
  return std::any_of(kGpu.begin(), kGpu.end(), [rest](std::string_view k) {
    return k.ends_with('.') ? rest.starts_with(k) : rest == k;
  });
}

// Every label of the node but the few migsim sets itself or that change on their own
// (README.md, "migsim import"): what selectors, Kueue's ResourceFlavors, topology keys or
// later manifests name is kept — node group, node pool, zone, topology, user labels. The
// hostname is migsim's node name ("<pool>-<i>"; pods' selectors on it are rewritten), the
// instance type the pool's type.
OrderedJson PoolLabels(const NodeFacts& f) {
  OrderedJson out = OrderedJson::object();
  for (const auto& [key, value] : f.labels) {
    if (key == "kubernetes.io/hostname" || key == "node.kubernetes.io/instance-type" ||
        GpuStateLabel(key)) {
      continue;
    }
    out[key] = value;
  }
  return out;
}

std::string PoolBaseName(const NodeFacts& f, const std::string& type) {
  for (const char* key :
       {"eks.amazonaws.com/nodegroup", "alpha.eksctl.io/nodegroup-name", "karpenter.sh/nodepool"}) {
    if (std::string group = LabelValue(f.labels, key); !group.empty()) return group;
  }
  std::string name = type;
  std::replace(name.begin(), name.end(), '.', '-');
  return name;
}

// The pool a node belongs to: an existing one with the same description, or a new one.
// Returns the pool's name.
std::string AddToPool(OrderedJson pool, const std::string& base, const std::string& node,
                      SnapshotCluster* out) {
  std::string name = base;
  for (int i = 2;; ++i) {
    if (!out->pools.contains(name)) {
      OrderedJson counted = {{"type", pool["type"]}, {"count", 0}};
      for (const auto& [key, value] : pool.items()) {
        if (key != "type") counted[key] = value;
      }
      out->pools[name] = std::move(counted);
      break;
    }
    OrderedJson existing = out->pools[name];
    existing.erase("count");
    if (existing == pool) break;
    name = base + "-" + std::to_string(i);
  }
  OrderedJson& count = out->pools[name]["count"];
  out->node_names[node] = name + "-" + std::to_string(count.get<int>());
  count = count.get<int>() + 1;
  return name;
}

void ReadNode(const ManifestNode& item, ManifestLog* log,
              SnapshotCluster* out, SnapshotSources* sources) {
  if (!item.ExpectMap(log)) return;
  NodeFacts f = ReadFacts(item, log);
  if (!log->ok()) return;
  ++out->nodes;
  if (!Usable(item, f.name, log)) return void(out->left_out.insert(f.name));
  f.gpus = ReadSnapshotGpus(item, f.name, f.labels, log);
  if (!log->ok()) return;
  if (!f.gpus.usable) return void(out->left_out.insert(f.name));
  OrderedJson pool = OrderedJson::object();
  const std::string type = NodeTypeOf(f, out);
  pool["type"] = type;
  if (OrderedJson labels = PoolLabels(f); !labels.empty()) pool["labels"] = labels;
  if (!f.gpus.mig.is_null()) pool["mig"] = f.gpus.mig;
  if (!f.gpus.device_plugin.is_null()) pool["device_plugin"] = f.gpus.device_plugin;
  if (OrderedJson taints = TaintsJson(item["spec"]["taints"], log); !taints.empty()) {
    pool["taints"] = std::move(taints);
  }
  const std::string pool_name = AddToPool(std::move(pool), PoolBaseName(f, type), f.name, out);
  sources->Add({"cluster", "nodes", pool_name}, item.place());
  if (f.gpus.single_profile) out->single_profile.insert(pool_name);
  if (out->node_types.contains(type)) sources->Add({"cluster", "node_types", type}, item.place());
}

}  // namespace

SnapshotCluster ReadSnapshotNodes(const std::vector<ManifestNode>& items,
                                  ManifestLog* log,
                                  SnapshotSources* sources) {
  SnapshotCluster out;
  for (const ManifestNode& item : items) {
    ReadNode(item, log, &out, sources);
    if (!log->ok()) break;
  }
  return out;
}

}  // namespace migsim::k8s
