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

constexpr std::string_view kMigPrefix = "nvidia.com/mig-";

// What a node of the snapshot is, read from its labels and status.
struct NodeFacts {
  std::string name;
  Labels labels;
  int64_t cpu_milli = 0, memory_mib = 0;
  int gpus = 0;
  std::vector<std::pair<std::string, int>> mig_resources;  // resource suffix -> count
};

std::string Label(const Labels& labels, const std::string& key) {
  const auto it = std::find_if(labels.begin(), labels.end(),
                               [&key](const auto& label) { return label.first == key; });
  return it == labels.end() ? "" : it->second;
}

std::string InstanceType(const Labels& labels) {
  std::string type = Label(labels, "node.kubernetes.io/instance-type");
  return type.empty() ? Label(labels, "beta.kubernetes.io/instance-type") : type;
}

int64_t Quantity(const ManifestNode& node, Result<int64_t> (*parse)(std::string_view),
                 ManifestLog* log) {
  if (!node.present()) return 0;
  Result<int64_t> parsed = parse(node.String(log));
  if (!log->ok()) return 0;
  if (!parsed.ok()) node.Fail(log, parsed.status().message());
  return parsed.ok() ? parsed.value() : 0;
}

// A device count: kubectl writes capacities as strings ("8").
int Count(const ManifestNode& node, ManifestLog* log) {
  if (!node.present()) return 0;
  const std::string text = node.String(log);
  if (!log->ok()) return 0;
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    node.Fail(log, "expected a device count, got '" + text + "'");
    return 0;
  }
  return std::stoi(text);
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
  const ManifestNode capacity = item["status"]["capacity"];
  const std::string count = Label(f.labels, "nvidia.com/gpu.count");
  f.gpus = !count.empty() && count.find_first_not_of("0123456789") == std::string::npos &&
                   count.size() < 3
               ? std::stoi(count)
               : Count(capacity["nvidia.com/gpu"], log);
  for (const std::string& key : capacity.Keys(log)) {
    if (!key.starts_with(kMigPrefix)) continue;
    const int n = Count(capacity[key], log);
    if (n > 0) f.mig_resources.emplace_back(key.substr(kMigPrefix.size()), n);
  }
  return f;
}

// The same MIG layout on every GPU, from the advertised nvidia.com/mig-<profile> counts
// (mixed strategy); empty when they do not divide evenly.
OrderedJson LayoutFromResources(const NodeFacts& f, const GpuModel& model) {
  OrderedJson layout = OrderedJson::array();
  for (const auto& [suffix, count] : f.mig_resources) {
    const auto p =
        std::find_if(model.profiles.begin(), model.profiles.end(),
                     [&s = suffix](const MigProfile& m) { return m.ResourceSuffix() == s; });
    if (p == model.profiles.end() || f.gpus == 0 || count % f.gpus != 0) return {};
    for (int i = 0; i < count / f.gpus; ++i) layout.push_back(p->name);
  }
  return OrderedJson::array({layout});
}

// The pool's `mig` object (null: the default, MIG off) and `device_plugin` for a MIG GPU.
bool MigFields(const ManifestNode& item, const NodeFacts& f, const GpuModel& model,
               OrderedJson* pool, ManifestLog* log) {
  const std::string config = Label(f.labels, "nvidia.com/mig.config");
  const bool configured = !config.empty() && config != "all-disabled";
  if (!configured && f.mig_resources.empty()) return true;
  if (configured && ResolveMigConfig(model, config).ok()) {
    (*pool)["mig"] = {{"config", config}};
  } else if (OrderedJson layouts = LayoutFromResources(f, model); !layouts.empty()) {
    if (configured) {
      item["metadata"]["labels"].Warn(
          log, "MIG config '" + config +
                   "' is not one migsim knows"
                   " for the " +
                   model.name + ": the layout advertised in status.capacity is used");
    }
    (*pool)["mig"] = {{"layouts", std::move(layouts)}};
  } else {
    item["status"]["capacity"].Warn(log, "node '" + f.name + "': MIG config '" + config +
                                             "' and the advertised MIG devices give no layout "
                                             "migsim can rebuild: left out");
    return false;
  }
  std::string strategy = Label(f.labels, "nvidia.com/mig.strategy");
  if (strategy != "single" && strategy != "mixed") {
    strategy = f.mig_resources.empty() ? "single" : "mixed";
  }
  (*pool)["device_plugin"] = {{"mig_strategy", strategy}};
  return true;
}

// A catalog type when the instance type is one and agrees with the node's GPUs; else a
// custom type from the node's allocatable CPU and memory and its GPUs.
std::string NodeTypeOf(const NodeFacts& f, const GpuModel* model, SnapshotCluster* out) {
  const std::string instance = InstanceType(f.labels);
  if (const NodeType* t = FindNodeType(instance);
      t != nullptr && t->gpu_count == f.gpus && (f.gpus == 0 || t->gpu == model)) {
    return instance;
  }
  OrderedJson type = {
      {"vcpu", std::max<int64_t>(1, f.cpu_milli / 1000)},
      {"memory_gib", static_cast<double>(std::max<int64_t>(1, f.memory_mib)) / 1024}};
  if (f.gpus > 0) type["gpus"] = f.gpus, type["gpu_model"] = model->name;
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

// Labels the pods select on, but not those migsim gives every node itself.
OrderedJson PoolLabels(const NodeFacts& f, const std::set<std::string>& selected) {
  OrderedJson out = OrderedJson::object();
  for (const auto& [key, value] : f.labels) {
    if (!selected.contains(key) || key == "kubernetes.io/hostname" ||
        key == "node.kubernetes.io/instance-type" || key.starts_with("nvidia.com/")) {
      continue;
    }
    out[key] = value;
  }
  return out;
}

std::string PoolBaseName(const NodeFacts& f, const std::string& type) {
  for (const char* key :
       {"eks.amazonaws.com/nodegroup", "alpha.eksctl.io/nodegroup-name", "karpenter.sh/nodepool"}) {
    if (std::string group = Label(f.labels, key); !group.empty()) return group;
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

void ReadNode(const ManifestNode& item, const std::set<std::string>& selected, ManifestLog* log,
              SnapshotCluster* out, SnapshotSources* sources) {
  if (!item.ExpectMap(log)) return;
  const NodeFacts f = ReadFacts(item, log);
  if (!log->ok()) return;
  ++out->nodes;
  if (!Usable(item, f.name, log)) return void(out->left_out.insert(f.name));
  const std::string product = Label(f.labels, "nvidia.com/gpu.product");
  const GpuModel* model = f.gpus > 0 ? FindGpuModel(product) : nullptr;
  if (f.gpus > 0 && model == nullptr) {
    item["metadata"]["labels"].Warn(log, "node '" + f.name + "': GPU product '" + product +
                                             "' is not in migsim's catalog: left out");
    return void(out->left_out.insert(f.name));
  }
  OrderedJson pool = OrderedJson::object();
  const std::string type = NodeTypeOf(f, model, out);
  pool["type"] = type;
  if (OrderedJson labels = PoolLabels(f, selected); !labels.empty()) pool["labels"] = labels;
  if (model != nullptr && model->mig_capable() && !MigFields(item, f, *model, &pool, log)) {
    return void(out->left_out.insert(f.name));
  }
  // GPU Feature Discovery's nvidia.com/gpu.replicas: the plugin's time-slicing of whole GPUs.
  if (const int replicas = Count(item["metadata"]["labels"]["nvidia.com/gpu.replicas"], log);
      f.gpus > 0 && replicas > 1 && !pool.contains("mig")) {
    pool["device_plugin"] = {{"time_slicing", {{"replicas", replicas}}}};
  }
  if (OrderedJson taints = TaintsJson(item["spec"]["taints"], log); !taints.empty()) {
    pool["taints"] = std::move(taints);
  }
  const std::string pool_name = AddToPool(std::move(pool), PoolBaseName(f, type), f.name, out);
  sources->Add({"cluster", "nodes", pool_name}, item.place());
  if (out->node_types.contains(type)) sources->Add({"cluster", "node_types", type}, item.place());
}

}  // namespace

SnapshotCluster ReadSnapshotNodes(const std::vector<ManifestNode>& items,
                                  const std::set<std::string>& selected_keys, ManifestLog* log,
                                  SnapshotSources* sources) {
  SnapshotCluster out;
  for (const ManifestNode& item : items) {
    ReadNode(item, selected_keys, log, &out, sources);
    if (!log->ok()) break;
  }
  return out;
}

}  // namespace migsim::k8s
