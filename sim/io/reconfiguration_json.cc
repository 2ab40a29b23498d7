// `cluster.reconfigurations`: relabelling nvidia.com/mig.config during a run.

#include <algorithm>

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// The MIG manager's pending window when a file gives none: operand teardown, repartition
// and device-plugin restart take minutes rather than seconds (domain.md §4.2).
constexpr double kDefaultDurationSeconds = 60;

// A reconfiguration and the list element it came from, for error pointers.
struct Sourced {
  Reconfiguration reconfiguration;
  size_t element = 0;
};

std::vector<std::string> PoolNames(const std::vector<NodePool>& pools) {
  std::vector<std::string> names;
  for (const NodePool& pool : pools) names.push_back(pool.name);
  return names;
}

// Nodes are not listed one by one in the message: a cluster can have thousands.
std::vector<uint32_t> FindNode(LoadContext* ctx, const JsonRef& ref, const ClusterSpec& cluster,
                               const std::vector<NodePool>& pools) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return {};
  for (uint32_t n = 0; n < cluster.nodes.size(); ++n) {
    if (cluster.nodes[n].name == *name) return {n};
  }
  ctx->Fail(ref.pointer(), "unknown node '" + *name + "' (nodes are named <pool>-<index>; pools: " +
                               JoinNames(PoolNames(pools)) + ")");
  return {};
}

std::vector<uint32_t> FindPool(LoadContext* ctx, const JsonRef& ref,
                               const std::vector<NodePool>& pools) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return {};
  for (const NodePool& pool : pools) {
    if (pool.name != *name) continue;
    std::vector<uint32_t> nodes;
    for (uint32_t i = 0; i < pool.count; ++i) nodes.push_back(pool.first + i);
    return nodes;
  }
  ctx->Fail(ref.pointer(), UnknownNameMessage("pool", *name, PoolNames(pools)));
  return {};
}

void LoadOne(LoadContext* ctx, const JsonRef& ref, size_t element,
             const std::vector<NodePool>& pools, const ClusterSpec& cluster,
             std::vector<Sourced>* out) {
  ObjectReader r(ctx, ref, {"at_s", "node", "pool", "mig_config", "duration_s"});
  if (!r.valid()) return;
  r.Require("at_s");
  const SimTime at = r.Seconds("at_s", SimTime::Zero());
  if (r.Has("node") == r.Has("pool")) {
    ctx->Fail(ref.pointer(), r.Has("node") ? "give either 'node' or 'pool', not both"
                                           : "missing required field 'node' (or 'pool')");
  }
  r.Require("mig_config");
  const SimTime duration = r.Seconds("duration_s", SimTime::Seconds(kDefaultDurationSeconds));
  if (!ctx->ok()) return;
  const JsonRef target = r.Field(r.Has("node") ? "node" : "pool");
  const std::vector<uint32_t> nodes =
      r.Has("node") ? FindNode(ctx, target, cluster, pools) : FindPool(ctx, target, pools);
  for (uint32_t n : nodes) {
    const NodeSpec& node = cluster.nodes[n];
    if (node.type->gpu_count == 0) {
      ctx->Fail(target.pointer(), "node '" + node.name + "' has no GPUs");
      return;
    }
    auto gpus = ResolveConfigForNode(ctx, r.Field("mig_config"), node);
    if (!gpus) return;
    const bool whole_gpu_sharing =
        node.plugin.sharing == SharingMode::kMps || node.plugin.sharing == SharingMode::kFractional;
    const bool mig_on = std::any_of(gpus->begin(), gpus->end(),
                                    [](const GpuMigSetting& g) { return g.mig_enabled; });
    if (whole_gpu_sharing && mig_on) {
      ctx->Fail(r.Field("mig_config").pointer(),
                "node '" + node.name +
                    "' shares whole GPUs (MPS or fractional), which MIG devices do not support");
      return;
    }
    out->push_back({{.at = at,
                     .node = n,
                     .mig_config = r.String("mig_config"),
                     .gpus = std::move(*gpus),
                     .duration = duration},
                    element});
  }
}

// REQUIRES: `sorted` is sorted by time. A node is pending for [at, at + duration); a
// second relabelling inside that window is not something the MIG manager can do.
void CheckOverlaps(LoadContext* ctx, const JsonRef& list, const std::vector<Sourced>& sorted,
                   const ClusterSpec& cluster) {
  std::vector<const Reconfiguration*> last(cluster.nodes.size(), nullptr);
  for (const Sourced& s : sorted) {
    const Reconfiguration& r = s.reconfiguration;
    const Reconfiguration* previous = last[r.node];
    if (previous != nullptr && r.at < previous->at + previous->duration) {
      ctx->Fail(list.Element(s.element).pointer(),
                "reconfiguration of node '" + cluster.nodes[r.node].name + "' at " +
                    FormatNumber(r.at.seconds()) + " s overlaps the one at " +
                    FormatNumber(previous->at.seconds()) + " s, pending until " +
                    FormatNumber((previous->at + previous->duration).seconds()) + " s");
      return;
    }
    last[r.node] = &r;
  }
}

}  // namespace

void LoadReconfigurations(LoadContext* ctx, const JsonRef& list, const std::vector<NodePool>& pools,
                          ClusterSpec* cluster) {
  if (!ExpectArray(ctx, list)) return;
  std::vector<Sourced> loaded;
  for (size_t i = 0; i < list.value().size() && ctx->ok(); ++i) {
    LoadOne(ctx, list.Element(i), i, pools, *cluster, &loaded);
  }
  if (!ctx->ok()) return;
  std::stable_sort(loaded.begin(), loaded.end(), [](const Sourced& a, const Sourced& b) {
    return a.reconfiguration.at < b.reconfiguration.at;
  });
  CheckOverlaps(ctx, list, loaded, *cluster);
  if (!ctx->ok()) return;
  for (Sourced& s : loaded) cluster->reconfigurations.push_back(std::move(s.reconfiguration));
}

}  // namespace migsim::io
