// `fault_processes`: random per-GPU and per-node failures (sim/engine/fault_spec.h; format and
// the Llama 3 calibration's derivation in scenarios/README.md).

#include <cmath>

#include "sim/io/fault_targets_json.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// The Llama 3 paper (Meta, 2024): 419 unexpected interruptions in 54 days of a
// 16,384-GPU H100 job (2,048 nodes of 8), about 78 % of them hardware; faulty GPUs 30 %
// and GPU HBM3 memory 17 % of them. Per-GPU failures are the GPU-attributable 47 %, per-node
// failures the rest of the hardware share, 31 %: mean times between failures of one GPU
// and of one node, in hours.
constexpr double kLlama3Hours = 54 * 24;
constexpr double kLlama3Interruptions = 419;
constexpr double kLlama3GpuMtbfHours = 16384 * kLlama3Hours / (0.47 * kLlama3Interruptions);
constexpr double kLlama3NodeMtbfHours = 2048 * kLlama3Hours / (0.31 * kLlama3Interruptions);

constexpr std::array<std::string_view, 11> kFields = {
    "name",  "kind",       "pool",     "calibration",         "mtbf_h",      "distribution",
    "shape", "accelerate", "repair_s", "repair_distribution", "toleration_s"};

std::optional<FaultKind> ReadProcessKind(LoadContext* ctx, const JsonRef& ref) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return std::nullopt;
  if (*name == "gpu-unhealthy") return FaultKind::kGpuUnhealthy;
  if (*name == "node-lost") return FaultKind::kNodeLost;
  if (*name == "spot-interruption") return FaultKind::kSpotInterruption;
  ctx->Fail(ref.pointer(), UnknownNameMessage("failure process kind", *name,
                                              {"gpu-unhealthy", "node-lost", "spot-interruption"}));
  return std::nullopt;
}

// One of two names at `key` (absent: the first); true for the second.
bool ReadChoice(LoadContext* ctx, ObjectReader& r, std::string_view key, std::string_view first,
                std::string_view second) {
  if (!r.Has(key)) return false;
  const std::string value = r.String(key);
  if (value == second) return true;
  if (value != first && ctx->ok()) {
    ctx->Fail(r.Field(key).pointer(),
              UnknownNameMessage(key, value, {std::string(first), std::string(second)}));
  }
  return false;
}

// The mean time between failures of one GPU or node, from `mtbf_h` or the calibration.
double ReadMtbfHours(LoadContext* ctx, ObjectReader& r, FaultKind kind) {
  if (r.Has("calibration") == r.Has("mtbf_h")) {
    ctx->Fail(r.object().pointer(), r.Has("mtbf_h")
                                        ? "give either 'calibration' or 'mtbf_h', not both"
                                        : "missing 'calibration' or 'mtbf_h'");
    return 0;
  }
  if (r.Has("mtbf_h")) {
    const double mtbf = r.Number("mtbf_h", 0, 0, kMaxSeconds / 3600);
    if (ctx->ok() && mtbf <= 0) ctx->Fail(r.Field("mtbf_h").pointer(), "must be > 0");
    return mtbf;
  }
  const std::string calibration = r.String("calibration");
  if (calibration != "llama3") {
    if (ctx->ok()) {
      ctx->Fail(r.Field("calibration").pointer(),
                UnknownNameMessage("calibration", calibration, {"llama3"}));
    }
    return 0;
  }
  return kind == FaultKind::kGpuUnhealthy ? kLlama3GpuMtbfHours : kLlama3NodeMtbfHours;
}

void ReadDistribution(LoadContext* ctx, ObjectReader& r, double mtbf_h, FaultProcess* p) {
  const bool weibull = ReadChoice(ctx, r, "distribution", "exponential", "weibull");
  if (r.Has("shape") && !weibull) {
    ctx->Fail(r.Field("shape").pointer(), "applies only to \"distribution\": \"weibull\"");
    return;
  }
  p->shape = r.Number("shape", 1, 0.05, 20);
  const double accelerate = r.Number("accelerate", 1, 1, 1e9);
  // A Weibull's mean is scale x Γ(1 + 1/k): the scale that keeps the mean at mtbf_h.
  const double scale_h = mtbf_h / accelerate / std::tgamma(1 + 1 / p->shape);
  p->scale = SimTime::Seconds(scale_h * 3600);
}

// A spot-interruption process: each instance's time from Ready to its interruption notice,
// with mean `mtbf_h`; no calibration (the Llama 3 rates are hardware failures) and no
// repair (the instance is reclaimed; its node group may launch another).
void LoadSpotProcess(LoadContext* ctx, ObjectReader& r, FaultProcess* p) {
  for (std::string_view key : {"calibration", "repair_s", "repair_distribution"}) {
    if (r.Has(key)) {
      ctx->Fail(r.Field(key).pointer(),
                "a spot-interruption process has no " + std::string(key) +
                    ": give mtbf_h, the mean hours from an instance's Ready to its notice (it is "
                    "reclaimed, not repaired)");
      return;
    }
  }
  r.Require("mtbf_h");
  const double mtbf_h = ReadMtbfHours(ctx, r, p->kind);
  if (ctx->ok()) ReadDistribution(ctx, r, mtbf_h, p);
}

void LoadProcess(LoadContext* ctx, const JsonRef& ref, size_t index, const ClusterSpec& cluster,
                 std::vector<FaultProcess>* out) {
  ObjectReader r(ctx, ref, kFields);
  if (!r.valid()) return;
  FaultProcess p;
  p.name = r.Has("name") ? r.NonEmptyString("name") : "fault_processes/" + std::to_string(index);
  for (const FaultProcess& other : *out) {
    if (ctx->ok() && other.name == p.name) {
      ctx->Fail(r.Field("name").pointer(), "another failure process is named '" + p.name + "'");
    }
  }
  if (!r.Require("kind") || !ctx->ok()) return;
  const std::optional<FaultKind> kind = ReadProcessKind(ctx, r.Field("kind"));
  if (!kind) return;
  p.kind = *kind;
  if (r.Has("toleration_s") && p.kind != FaultKind::kNodeLost) {
    ctx->Fail(r.Field("toleration_s").pointer(), "applies only to node-lost processes");
    return;
  }
  if (r.Has("pool")) {
    p.nodes = FindPoolNodes(ctx, r.Field("pool"), cluster);
  } else {
    for (uint32_t n = 0; n < cluster.nodes.size(); ++n) p.nodes.push_back(n);
  }
  if (p.kind == FaultKind::kSpotInterruption) {
    LoadSpotProcess(ctx, r, &p);
    if (ctx->ok()) out->push_back(std::move(p));
    return;
  }
  const double mtbf_h = ReadMtbfHours(ctx, r, p.kind);
  if (!ctx->ok()) return;
  ReadDistribution(ctx, r, mtbf_h, &p);
  r.Require("repair_s");
  p.repair = r.Seconds("repair_s", SimTime::Zero());
  if (ctx->ok() && p.repair.micros() <= 0) ctx->Fail(r.Field("repair_s").pointer(), "must be > 0");
  p.repair_exponential = ReadChoice(ctx, r, "repair_distribution", "fixed", "exponential");
  p.toleration = r.Seconds("toleration_s", kDefaultNotReadyToleration);
  if (ctx->ok()) out->push_back(std::move(p));
}

}  // namespace

void LoadFaultProcesses(LoadContext* ctx, const JsonRef& list, ClusterSpec* cluster) {
  if (!ExpectArray(ctx, list)) return;
  std::vector<FaultProcess> processes;
  for (size_t i = 0; i < list.value().size() && ctx->ok(); ++i) {
    LoadProcess(ctx, list.Element(i), i, *cluster, &processes);
  }
  if (ctx->ok()) cluster->fault_processes = std::move(processes);
}

}  // namespace migsim::io
