#include "sim/io/fault_targets_json.h"

#include <algorithm>
#include <cmath>

namespace migsim::io {
namespace {

std::vector<std::string> PoolNames(const ClusterSpec& cluster) {
  std::vector<std::string> names;
  for (const NodePoolRange& pool : cluster.pools) names.push_back(pool.name);
  return names;
}

std::vector<uint32_t> ReadNodeList(LoadContext* ctx, const JsonRef& ref,
                                   const ClusterSpec& cluster) {
  std::vector<uint32_t> nodes;
  if (!ExpectArray(ctx, ref)) return nodes;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must name at least one node");
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    std::optional<uint32_t> node = FindNodeNamed(ctx, ref.Element(i), cluster);
    if (node && std::find(nodes.begin(), nodes.end(), *node) != nodes.end()) {
      ctx->Fail(ref.Element(i).pointer(),
                "node '" + cluster.nodes[*node].name + "' is listed twice");
    }
    if (node) nodes.push_back(*node);
  }
  return nodes;
}

std::vector<int> ReadGpuList(LoadContext* ctx, const JsonRef& ref, const NodeSpec& node) {
  std::vector<int> gpus;
  if (!ExpectArray(ctx, ref)) return gpus;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must name at least one GPU");
  const int count = static_cast<int>(node.gpus.size());
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    std::optional<int64_t> gpu = ReadInt(ctx, ref.Element(i), 0);
    if (!gpu) break;
    const std::string pointer = ref.Element(i).pointer();
    if (*gpu >= count) {
      ctx->Fail(pointer, "GPU " + std::to_string(*gpu) + " does not exist: node '" + node.name +
                             "' has " + std::to_string(count) + " GPUs" +
                             (count > 0 ? " (0-" + std::to_string(count - 1) + ")" : ""));
    } else if (std::find(gpus.begin(), gpus.end(), *gpu) != gpus.end()) {
      ctx->Fail(pointer, "GPU " + std::to_string(*gpu) + " is listed twice");
    }
    gpus.push_back(static_cast<int>(*gpu));
  }
  return gpus;
}

// `fraction` (rounded up) or `count` of the pool's nodes or GPUs.
void ReadShare(LoadContext* ctx, const ObjectReader& r, bool per_gpu, const ClusterSpec& cluster,
               FaultTarget* target) {
  if (r.Has("fraction") == r.Has("count")) {
    ctx->Fail(r.object().pointer(), r.Has("count") ? "give either 'fraction' or 'count', not both"
                                                   : "a pool target needs 'fraction' or 'count'");
    return;
  }
  int64_t members = 0;
  for (uint32_t n : target->nodes) members += per_gpu ? cluster.nodes[n].gpus.size() : 1;
  const std::string unit = per_gpu ? " GPUs" : " nodes";
  target->drawn = true;
  if (r.Has("fraction")) {
    const JsonRef f = r.Field("fraction");
    std::optional<double> fraction = ReadNumber(ctx, f, 0, 1);
    if (fraction && *fraction <= 0) ctx->Fail(f.pointer(), "must be in (0, 1]");
    if (!fraction || !ctx->ok()) return;
    target->count = static_cast<uint32_t>(std::ceil(*fraction * static_cast<double>(members)));
    return;
  }
  const JsonRef c = r.Field("count");
  std::optional<int64_t> count = ReadInt(ctx, c, 1);
  if (count && *count > members) {
    ctx->Fail(c.pointer(), "count " + std::to_string(*count) + " is more than the pool's " +
                               std::to_string(members) + unit);
  }
  if (count && ctx->ok()) target->count = static_cast<uint32_t>(*count);
}

}  // namespace

std::optional<uint32_t> FindNodeNamed(LoadContext* ctx, const JsonRef& ref,
                                      const ClusterSpec& cluster) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return std::nullopt;
  for (uint32_t n = 0; n < cluster.nodes.size(); ++n) {
    if (cluster.nodes[n].name == *name) return n;
  }
  ctx->Fail(ref.pointer(),
            "unknown node '" + *name + "' (pools: " + JoinNames(PoolNames(cluster)) + ")");
  return std::nullopt;
}

std::vector<uint32_t> FindPoolNodes(LoadContext* ctx, const JsonRef& ref,
                                    const ClusterSpec& cluster) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return {};
  for (const NodePoolRange& pool : cluster.pools) {
    if (pool.name != *name) continue;
    std::vector<uint32_t> nodes(pool.count);
    for (uint32_t i = 0; i < pool.count; ++i) nodes[i] = pool.first + i;
    return nodes;
  }
  ctx->Fail(ref.pointer(), UnknownNameMessage("pool", *name, PoolNames(cluster)));
  return {};
}

FaultTarget ReadFaultTarget(LoadContext* ctx, const ObjectReader& r, bool per_gpu,
                            const ClusterSpec& cluster) {
  FaultTarget target;
  const int forms = int{r.Has("nodes")} + int{r.Has("node")} + int{r.Has("pool")};
  if (forms != 1) {
    ctx->Fail(r.object().pointer(), forms == 0
                                        ? "missing the target: give 'nodes', 'node' or 'pool'"
                                        : "give one target: 'nodes', 'node' or 'pool'");
    return target;
  }
  for (std::string_view share : {"fraction", "count"}) {
    if (r.Has(share) && !r.Has("pool")) {
      ctx->Fail(r.Field(share).pointer(), "applies only to a 'pool' target");
      return target;
    }
  }
  if (r.Has("gpus") && !r.Has("node")) {
    ctx->Fail(r.Field("gpus").pointer(), "'gpus' needs 'node'");
    return target;
  }
  if (r.Has("nodes")) {
    target.nodes = ReadNodeList(ctx, r.Field("nodes"), cluster);
  } else if (r.Has("node")) {
    std::optional<uint32_t> node = FindNodeNamed(ctx, r.Field("node"), cluster);
    if (node) target.nodes = {*node};
    if (node && r.Has("gpus")) {
      target.gpus = ReadGpuList(ctx, r.Field("gpus"), cluster.nodes[*node]);
    }
  } else {
    target.nodes = FindPoolNodes(ctx, r.Field("pool"), cluster);
    if (ctx->ok()) ReadShare(ctx, r, per_gpu, cluster, &target);
  }
  return target;
}

}  // namespace migsim::io
