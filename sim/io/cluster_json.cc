// `cluster`: custom node types and node pools (see scenarios/README.md).

#include <memory>
#include <unordered_map>

#include "sim/io/input_limits.h"
#include "sim/io/scenario_cost.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// Node pools are capped so that a typo ("count": 1e9) is an error, not an allocation
// that takes the machine down.
constexpr int64_t kMaxNodesPerPool = 100000;
constexpr int64_t kMaxGpusPerNode = 64;
// Far above any machine (a p5.48xlarge has 192 vCPU and 2 TiB), low enough that sums over
// 100,000 nodes stay exact in CPU millicores and memory MiB.
constexpr int64_t kMaxVcpu = 100000;
constexpr double kMaxMemoryGib = 1048576;  // 1 PiB

using CustomTypes = std::vector<std::pair<std::string, std::shared_ptr<const NodeType>>>;

}  // namespace

std::vector<std::string> GpuModelNames() {
  std::vector<std::string> names;
  for (const GpuModel& model : AllGpuModels()) names.push_back(model.name);
  return names;
}

namespace {

std::shared_ptr<const NodeType> LoadNodeType(LoadContext* ctx, const std::string& name,
                                             const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"vcpu", "memory_gib", "gpus", "gpu_model", "price_per_hour"});
  NodeType type{.name = name};
  r.Require("vcpu");
  type.vcpu = static_cast<int>(r.Int("vcpu", 1, 1, kMaxVcpu));
  r.Require("memory_gib");
  type.memory_gib = r.Number("memory_gib", 1, 0, kMaxMemoryGib);
  if (r.Has("memory_gib") && ctx->ok() && type.memory_gib * 1024 < 1) {
    ctx->Fail(r.Field("memory_gib").pointer(), "must be at least 1 MiB (0.0009765625)");
  }
  type.gpu_count = static_cast<int>(r.Int("gpus", 0, 0, kMaxGpusPerNode));
  if (type.gpu_count > 0 && r.Require("gpu_model")) {
    std::string model = r.String("gpu_model");
    type.gpu = FindGpuModel(model);
    if (type.gpu == nullptr && ctx->ok()) {
      ctx->Fail(r.Field("gpu_model").pointer(),
                UnknownNameMessage("GPU model", model, GpuModelNames()));
    }
  } else if (r.Has("gpu_model")) {
    ctx->Fail(r.Field("gpu_model").pointer(), "only allowed when gpus >= 1");
  }
  type.price_per_hour = r.Number("price_per_hour", 0, 0);
  if (!ctx->ok()) return nullptr;
  return std::make_shared<const NodeType>(std::move(type));
}

CustomTypes LoadNodeTypes(LoadContext* ctx, const JsonRef& ref) {
  CustomTypes types;
  if (!ExpectNamedObject(ctx, ref, "node type")) return types;
  for (const auto& [name, value] : ref.value().items()) {
    if (FindNodeType(name) != nullptr) {
      ctx->Fail(ref.PointerTo(name),
                "'" + name + "' is a catalog node type; give the custom type another name");
      return types;
    }
    std::shared_ptr<const NodeType> type = LoadNodeType(ctx, name, ref.Member(name));
    if (type == nullptr) return types;
    types.emplace_back(name, std::move(type));
  }
  return types;
}

std::vector<std::string> NodeTypeNames(const CustomTypes& custom) {
  std::vector<std::string> names;
  for (const NodeType& type : AllNodeTypes()) names.push_back(type.name);
  for (const auto& [name, type] : custom) names.push_back(name);
  return names;
}

// Custom types first; they cannot shadow catalog names anyway.
std::shared_ptr<const NodeType> ResolveNodeType(LoadContext* ctx, const JsonRef& ref,
                                                const CustomTypes& custom) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return nullptr;
  for (const auto& [custom_name, type] : custom) {
    if (custom_name == *name) return type;
  }
  if (std::shared_ptr<const NodeType> type = SharedCatalogNodeType(*name)) return type;
  ctx->Fail(ref.pointer(), UnknownNameMessage("node type", *name, NodeTypeNames(custom)));
  return nullptr;
}

// Nodes `<pool>-<i>`, all alike; or the rows of an openb node CSV (openb_pool_json.cc).
void LoadPool(LoadContext* ctx, const std::string& name, const JsonRef& ref,
              const CustomTypes& custom, ClusterSpec* cluster, std::vector<NodePool>* pools) {
  if (ref.value().is_object() && ref.value().contains("openb_nodes")) {
    LoadOpenbPool(ctx, name, ref, cluster, pools);
    return;
  }
  ObjectReader r(
      ctx, ref,
      {"type", "count", "labels", "mig", "device_plugin", "openb_nodes", "taints", "dra",
       "autoscaling"});
  if (!r.Require("type")) return;
  if (r.Has("autoscaling") && r.Has("count")) {
    ctx->Fail(r.Field("count").pointer(),
              "an autoscaled pool has no count: its size is autoscaling's min ... max");
    return;
  }
  NodeSpec node;
  node.type = ResolveNodeType(ctx, r.Field("type"), custom);
  int64_t count = r.Int("count", 1, 1, kMaxNodesPerPool);
  if (r.Has("labels")) node.extra_labels = ReadLabels(ctx, r.Field("labels"));
  if (r.Has("taints") && ctx->ok()) node.taints = ReadTaints(ctx, r.Field("taints"));
  if (!ctx->ok()) return;
  LoadNodeGpus(ctx, r, &node);
  if (r.Has("dra") && ctx->ok()) LoadDraPool(ctx, r, &node);
  if (!ctx->ok()) return;
  if (r.Has("autoscaling")) {
    const auto index = static_cast<uint32_t>(pools->size());
    std::optional<NodeGroupSpec> group = LoadNodeGroup(ctx, r.Field("autoscaling"), node, index);
    if (!group) return;
    count = group->max;
    cluster->node_groups.push_back(*group);
  }
  const auto first = static_cast<uint32_t>(cluster->nodes.size());
  pools->push_back({name, first, static_cast<uint32_t>(count)});
  for (int64_t i = 0; i < count; ++i) {
    node.name = name + "-" + std::to_string(i);
    cluster->nodes.push_back(node);
  }
}

// Node names identify nodes in every output, so two nodes may not share one. Catalog
// pools cannot clash (`<pool>-<i>`, pool names unique, indices without '-'), but an openb
// pool names its nodes after the CSV, e.g. two pools reading one CSV. The error names the
// later node's pool and the pool it clashes with.
void CheckUniqueNames(LoadContext* ctx, const JsonRef& ref, const ClusterSpec& cluster,
                      const std::vector<NodePool>& pools) {
  std::unordered_map<std::string_view, const NodePool*> owner;
  owner.reserve(cluster.nodes.size());
  for (const NodePool& pool : pools) {
    for (uint32_t i = pool.first; i < pool.first + pool.count; ++i) {
      const std::string& node = cluster.nodes[i].name;
      const auto [it, inserted] = owner.emplace(node, &pool);
      if (inserted) continue;
      const std::string where =
          it->second == &pool ? "twice in this pool" : "also in pool '" + it->second->name + "'";
      ctx->Fail(ref.PointerTo(pool.name), "node name '" + node + "' is " + where +
                                              "; node names must be unique in the cluster");
      return;
    }
  }
}

void LoadPools(LoadContext* ctx, const JsonRef& ref, const CustomTypes& custom,
               ClusterSpec* cluster, std::vector<NodePool>* pools) {
  if (!ExpectNamedObject(ctx, ref, "node pool")) return;
  if (ref.value().empty()) {
    ctx->Fail(ref.pointer(), "must have at least one node pool");
    return;
  }
  int64_t devices = 0;
  for (const auto& [name, value] : ref.value().items()) {
    const size_t first = cluster->nodes.size();
    LoadPool(ctx, name, ref.Member(name), custom, cluster, pools);
    if (!ctx->ok()) return;
    // Pools are checked as they are made: each is capped, but pools x nodes x GPUs could
    // still multiply past memory.
    int64_t pool_devices = 0;
    for (size_t n = first; n < cluster->nodes.size(); ++n) {
      pool_devices += GpuDevices(cluster->nodes[n]);
    }
    devices += pool_devices;
    if (devices > CurrentInputLimits().gpu_devices) {
      ctx->Fail(ref.PointerTo(name),
                "the pools so far hold " + std::to_string(devices) + " GPU devices (this one " +
                    std::to_string(cluster->nodes.size() - first) + " nodes, " +
                    std::to_string(pool_devices) +
                    " devices, a MIG-capable GPU counted as its compute slices); the limit is " +
                    std::to_string(CurrentInputLimits().gpu_devices) + RaiseHint("gpu-devices"));
      return;
    }
  }
  CheckUniqueNames(ctx, ref, *cluster, *pools);
}

}  // namespace

void LoadCluster(LoadContext* ctx, const JsonRef& ref, ClusterSpec* out) {
  ObjectReader r(ctx, ref, {"nodes", "node_types", "reconfigurations", "autoscaler", "karpenter"});
  if (!r.valid()) return;
  CustomTypes custom;
  if (r.Has("node_types")) custom = LoadNodeTypes(ctx, r.Field("node_types"));
  std::vector<NodePool> pools;
  if (r.Require("nodes") && ctx->ok()) LoadPools(ctx, r.Field("nodes"), custom, out, &pools);
  for (const NodePool& pool : pools) out->pools.push_back({pool.name, pool.first, pool.count});
  if (r.Has("autoscaler") && ctx->ok()) {
    if (out->node_groups.empty()) {
      ctx->Fail(r.Field("autoscaler").pointer(),
                "no node pool is autoscaled (give a pool 'autoscaling')");
      return;
    }
    LoadAutoscaler(ctx, r.Field("autoscaler"), &out->autoscaler);
  }
  if (r.Has("karpenter") && ctx->ok()) {
    if (out->node_groups.empty()) {
      ctx->Fail(r.Field("karpenter").pointer(),
                "no node pool is autoscaled (give a pool 'autoscaling')");
      return;
    }
    if (r.Has("autoscaler")) {
      ctx->Fail(r.Field("karpenter").pointer(),
                "give either 'autoscaler' (the Cluster Autoscaler) or 'karpenter', not both");
      return;
    }
    out->provisioner = Provisioner::kKarpenter;
    LoadKarpenter(ctx, r.Field("karpenter"), &out->karpenter);
  }
  if (r.Has("reconfigurations") && ctx->ok()) {
    LoadReconfigurations(ctx, r.Field("reconfigurations"), pools, out);
    if (ctx->ok()) CheckDraReconfigurations(ctx, r.Field("reconfigurations"), *out);
  }
}

}  // namespace migsim::io
