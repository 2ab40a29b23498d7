// A node pool read from an openb node CSV (`cluster.nodes.<pool>.openb_nodes`; see
// scenarios/README.md).

#include <map>
#include <memory>

#include "sim/io/hardware_catalog.h"
#include "sim/io/openb_csv.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

constexpr char kModelLabel[] = "alibabacloud.com/gpu-card-model";

// The openb GPU models with a catalog GPU of the same kind. The others (P100, A10 and
// Alibaba's unnamed G2/G3) have no catalog entry: a scenario maps them in `gpu_models`.
const std::map<std::string, std::string>& DefaultGpuModels() {
  static const std::map<std::string, std::string> models = {
      {"T4", "T4"}, {"V100M16", "V100-SXM2-16GB"}, {"V100M32", "V100-SXM2-32GB"}};
  return models;
}

// openb model -> catalog model (a built-in or the scenario's), the defaults overridden by
// the pool's `gpu_models`.
using ModelMap = std::map<std::string, std::shared_ptr<const GpuModel>>;

ModelMap ReadGpuModels(LoadContext* ctx, ObjectReader& r) {
  ModelMap models;
  for (const auto& [openb, name] : DefaultGpuModels()) {
    models[openb] = ctx->catalog().FindGpuModel(name);
  }
  if (!r.Has("gpu_models")) return models;
  const JsonRef ref = r.Field("gpu_models");
  for (const auto& [openb, name] : ReadLabels(ctx, ref)) {
    std::shared_ptr<const GpuModel> model = ctx->catalog().FindGpuModel(name);
    if (model == nullptr && ctx->ok()) {
      ctx->Fail(ref.PointerTo(openb),
                UnknownNameMessage("GPU model", name, ctx->catalog().GpuModelNames()));
    }
    models[openb] = model;
  }
  return models;
}

// One shared type per distinct row type: nodes alike but for their names then hold the
// same pointer, which is what lets the unschedulable-pod check treat a run of them as one.
using PoolTypes = std::vector<std::shared_ptr<const NodeType>>;

std::shared_ptr<const NodeType> Shared(NodeType type, PoolTypes* known) {
  for (const std::shared_ptr<const NodeType>& k : *known) {
    if (*k == type) return k;
  }
  known->push_back(std::make_shared<const NodeType>(std::move(type)));
  return known->back();
}

// The row as a node type: its CPU (whole cores), memory and GPUs of the mapped model.
std::shared_ptr<const NodeType> RowType(LoadContext* ctx, const std::string& pointer,
                                        const std::string& csv, const OpenbNode& row,
                                        const ModelMap& models,
                                        PoolTypes* known) {
  const std::string where = csv + ":line " + std::to_string(row.line) + ": ";
  if (row.cpu_milli % 1000 != 0 || row.cpu_milli == 0 || row.memory_mib == 0) {
    ctx->Fail(pointer, where + "a node needs whole CPU cores and some memory (cpu_milli " +
                           std::to_string(row.cpu_milli) + ", memory_mib " +
                           std::to_string(row.memory_mib) + ")");
    return nullptr;
  }
  NodeType type{.name = "openb", .vcpu = static_cast<int>(row.cpu_milli / 1000),
                .memory_gib = static_cast<double>(row.memory_mib) / 1024};
  if (row.gpus > 0) {
    const auto it = models.find(row.model);
    if (it == models.end()) {
      ctx->Fail(pointer, where + "the openb GPU model '" + row.model +
                             "' has no catalog GPU: map it in gpu_models, e.g. \"gpu_models\": "
                             "{\"" + row.model + "\": \"A10G\"}");
      return nullptr;
    }
    type.name = "openb-" + row.model;
    type.gpu_count = row.gpus;
    type.gpu = it->second.get();
    type.gpu_owner = it->second;
  }
  return Shared(std::move(type), known);
}

}  // namespace

void LoadOpenbPool(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                   ClusterSpec* cluster, std::vector<NodePool>* pools) {
  ObjectReader r(ctx, ref, {"openb_nodes", "gpu_models", "labels", "mig", "device_plugin"});
  const std::string file = r.NonEmptyString("openb_nodes");
  const ModelMap models = ReadGpuModels(ctx, r);
  Labels labels;
  if (r.Has("labels")) labels = ReadLabels(ctx, r.Field("labels"));
  if (!ctx->ok()) return;
  const std::string pointer = r.Field("openb_nodes").pointer();
  if (!ctx->MayReadNamedFile(pointer)) return;
  const std::string csv = ctx->ResolvePath(file);
  Result<std::vector<OpenbNode>> rows = LoadOpenbNodes(csv);
  if (!rows.ok()) {
    ctx->Fail(pointer, rows.status().ToString());
    return;
  }
  if (rows.value().empty()) {
    ctx->Fail(pointer, csv + ": no nodes");
    return;
  }
  if (Status s = CheckUniqueNames(rows.value(), csv, "node"); !s.ok()) {
    ctx->Fail(pointer, s.ToString());
    return;
  }
  const auto first = static_cast<uint32_t>(cluster->nodes.size());
  PoolTypes types;
  for (const OpenbNode& row : rows.value()) {
    NodeSpec node;
    node.name = row.name;
    node.type = RowType(ctx, pointer, csv, row, models, &types);
    if (node.type == nullptr) return;
    node.extra_labels = labels;
    if (row.gpus > 0) {
      std::erase_if(node.extra_labels, [](const auto& l) { return l.first == kModelLabel; });
      node.extra_labels.emplace_back(kModelLabel, row.model);
      std::sort(node.extra_labels.begin(), node.extra_labels.end());
    }
    // mig and device_plugin are for the pool's GPU nodes; its CPU nodes have neither.
    if (row.gpus > 0) LoadNodeGpus(ctx, r, &node);
    if (!ctx->ok()) return;
    cluster->nodes.push_back(std::move(node));
  }
  pools->push_back({name, first, static_cast<uint32_t>(rows.value().size())});
}

}  // namespace migsim::io
