// `faults`: scripted faults on named nodes or GPUs, or on a share of a pool drawn by the
// run's seed (sim/engine/fault_spec.h; format in scenarios/README.md).

#include <algorithm>
#include <cmath>

#include "sim/io/fault_targets_json.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

constexpr std::array<std::string_view, 12> kFaultFields = {
    "at_s",     "kind",  "nodes",    "node",         "gpus",     "pool",
    "fraction", "count", "repair_s", "toleration_s", "notice_s", "maintenance_s"};

struct KindName {
  std::string_view name;
  FaultKind kind;
};
constexpr std::array<KindName, 5> kKinds = {
    {{"node-lost", FaultKind::kNodeLost},
     {"gpu-unhealthy", FaultKind::kGpuUnhealthy},
     {"spot-interruption", FaultKind::kSpotInterruption},
     {"drain", FaultKind::kDrain},
     {"mig-reconfigure-failed", FaultKind::kMigReconfigureFailed}}};

// The fields only some kinds take, and which.
struct KindField {
  std::string_view field;
  std::vector<FaultKind> kinds;
  std::string_view which;
};

const std::vector<KindField>& KindFields() {
  static const std::vector<KindField> fields = {
      {"repair_s",
       {FaultKind::kNodeLost, FaultKind::kGpuUnhealthy, FaultKind::kMigReconfigureFailed},
       "node-lost, gpu-unhealthy and mig-reconfigure-failed faults"},
      {"toleration_s", {FaultKind::kNodeLost}, "node-lost faults"},
      {"notice_s", {FaultKind::kSpotInterruption}, "spot-interruption faults"},
      {"maintenance_s", {FaultKind::kDrain}, "drain faults"},
      {"gpus", {FaultKind::kGpuUnhealthy}, "gpu-unhealthy faults"}};
  return fields;
}

std::optional<FaultKind> ReadKind(LoadContext* ctx, const JsonRef& ref) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return std::nullopt;
  for (const KindName& k : kKinds) {
    if (k.name == *name) return k.kind;
  }
  std::vector<std::string> valid;
  for (const KindName& k : kKinds) valid.emplace_back(k.name);
  ctx->Fail(ref.pointer(), UnknownNameMessage("fault kind", *name, valid));
  return std::nullopt;
}

void CheckKindFields(LoadContext* ctx, const ObjectReader& r, FaultKind kind) {
  for (const KindField& f : KindFields()) {
    if (!r.Has(f.field)) continue;
    if (std::find(f.kinds.begin(), f.kinds.end(), kind) == f.kinds.end()) {
      ctx->Fail(r.Field(f.field).pointer(), "applies only to " + std::string(f.which));
      return;
    }
  }
}

// A positive duration (a repair or a maintenance of 0 s is a typo, not a fault).
std::optional<SimTime> ReadPositiveSeconds(LoadContext* ctx, const ObjectReader& r,
                                           std::string_view key) {
  if (!r.Has(key)) return std::nullopt;
  std::optional<SimTime> s = ReadSeconds(ctx, r.Field(key));
  if (s && s->micros() <= 0) {
    ctx->Fail(r.Field(key).pointer(), "must be > 0");
    return std::nullopt;
  }
  return s;
}

// The nodes a kind can hit: GPU kinds need GPUs, a failed MIG apply MIG-enabled GPUs.
void CheckNodes(LoadContext* ctx, const JsonRef& where, FaultKind kind,
                const std::vector<uint32_t>& nodes, const ClusterSpec& cluster) {
  for (uint32_t n : nodes) {
    const NodeSpec& node = cluster.nodes[n];
    const bool gpu_kind =
        kind == FaultKind::kGpuUnhealthy || kind == FaultKind::kMigReconfigureFailed;
    if (gpu_kind && node.gpus.empty()) {
      ctx->Fail(where.pointer(), "node '" + node.name + "' has no GPUs");
      return;
    }
    const bool mig = std::any_of(node.gpus.begin(), node.gpus.end(),
                                 [](const GpuMigSetting& g) { return g.mig_enabled; });
    if (kind == FaultKind::kMigReconfigureFailed && !mig) {
      ctx->Fail(where.pointer(), "node '" + node.name + "' has no MIG-enabled GPU to reconfigure");
      return;
    }
  }
}

void ReadTiming(LoadContext* ctx, ObjectReader& r, Fault* fault) {
  fault->repair = ReadPositiveSeconds(ctx, r, "repair_s");
  fault->toleration = r.Seconds("toleration_s", kDefaultNotReadyToleration);
  if (std::optional<SimTime> notice = ReadPositiveSeconds(ctx, r, "notice_s")) {
    fault->notice = *notice;
  }
  if (fault->kind == FaultKind::kDrain && r.Require("maintenance_s")) {
    fault->maintenance = ReadPositiveSeconds(ctx, r, "maintenance_s").value_or(SimTime::Zero());
  }
}

void LoadFault(LoadContext* ctx, const JsonRef& ref, const ClusterSpec& cluster,
               std::vector<Fault>* out) {
  ObjectReader r(ctx, ref, kFaultFields);
  if (!r.valid()) return;
  Fault fault;
  r.Require("at_s");
  fault.at = r.Seconds("at_s", SimTime::Zero());
  if (!r.Require("kind") || !ctx->ok()) return;
  const std::optional<FaultKind> kind = ReadKind(ctx, r.Field("kind"));
  if (!kind) return;
  fault.kind = *kind;
  CheckKindFields(ctx, r, fault.kind);
  if (!ctx->ok()) return;
  fault.target = ReadFaultTarget(ctx, r, fault.kind == FaultKind::kGpuUnhealthy, cluster);
  if (!ctx->ok()) return;
  CheckNodes(ctx, ref, fault.kind, fault.target.nodes, cluster);
  ReadTiming(ctx, r, &fault);
  if (ctx->ok()) out->push_back(std::move(fault));
}

}  // namespace

void LoadFaults(LoadContext* ctx, const JsonRef& list, ClusterSpec* cluster) {
  if (!ExpectArray(ctx, list)) return;
  std::vector<Fault> faults;
  for (size_t i = 0; i < list.value().size() && ctx->ok(); ++i) {
    LoadFault(ctx, list.Element(i), *cluster, &faults);
  }
  if (!ctx->ok()) return;
  std::stable_sort(faults.begin(), faults.end(),
                   [](const Fault& a, const Fault& b) { return a.at < b.at; });
  cluster->faults = std::move(faults);
}

}  // namespace migsim::io
