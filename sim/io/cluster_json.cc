// `cluster`: the scenario's own GPU models and node types, and node pools (see
// scenarios/README.md and README.md "GPU models and node types").

#include <memory>
#include <unordered_map>

#include "sim/io/catalog_json.h"
#include "sim/io/input_limits.h"
#include "sim/io/scenario_cost.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// Node pools are capped so that a typo ("count": 1e9) is an error, not an allocation
// that takes the machine down.
constexpr int64_t kMaxNodesPerPool = 100000;

// A built-in type or one the scenario defined.
std::shared_ptr<const NodeType> ResolveNodeType(LoadContext* ctx, const JsonRef& ref) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return nullptr;
  if (std::shared_ptr<const NodeType> type = ctx->catalog().FindNodeType(*name)) return type;
  ctx->Fail(ref.pointer(),
            UnknownNameMessage("node type", *name, ctx->catalog().NodeTypeNames()));
  return nullptr;
}

// Nodes `<pool>-<i>`, all alike; or the rows of an openb node CSV (openb_pool_json.cc).
void LoadPool(LoadContext* ctx, const std::string& name, const JsonRef& ref,
              ClusterSpec* cluster, std::vector<NodePool>* pools) {
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
  node.type = ResolveNodeType(ctx, r.Field("type"));
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

void LoadPools(LoadContext* ctx, const JsonRef& ref, ClusterSpec* cluster,
               std::vector<NodePool>* pools) {
  if (!ExpectNamedObject(ctx, ref, "node pool")) return;
  if (ref.value().empty()) {
    ctx->Fail(ref.pointer(), "must have at least one node pool");
    return;
  }
  int64_t devices = 0;
  for (const auto& [name, value] : ref.value().items()) {
    const size_t first = cluster->nodes.size();
    LoadPool(ctx, name, ref.Member(name), cluster, pools);
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
  ObjectReader r(ctx, ref,
                 {"nodes", "node_types", "reconfigurations", "autoscaler", "karpenter",
                  "gpu_models", "catalog"});
  if (!r.valid()) return;
  // The scenario's own GPU models and node types join the built-ins; everything read after
  // this (pools, job classes, ...) resolves names against them.
  auto catalog = std::make_shared<HardwareCatalog>(BuiltinCatalog());
  LoadClusterDefinitions(ctx, ref, catalog.get());
  ctx->set_catalog(std::move(catalog));
  std::vector<NodePool> pools;
  if (r.Require("nodes") && ctx->ok()) LoadPools(ctx, r.Field("nodes"), out, &pools);
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
