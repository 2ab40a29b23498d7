// The parameters of the queue disciplines in `scheduler`: fair_share and las.

#include "sim/io/json_reader.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {

namespace {

// `weights`: namespace name → weight > 0.
void LoadFairShareWeights(LoadContext* ctx, const JsonRef& ref, Scenario* scenario) {
  if (!ExpectObject(ctx, ref)) return;
  for (const auto& [name, value] : ref.value().items()) {
    const JsonRef weight_ref = ref.Member(name);
    // The key is checked and interned like any namespace value, and reported at its entry.
    const Json name_json = name;
    const int32_t ns = ReadNamespace(ctx, JsonRef(name_json, weight_ref.pointer()), scenario);
    const std::optional<double> weight = ReadNumber(ctx, weight_ref, 0);
    if (!ctx->ok()) return;
    if (*weight <= 0) {
      ctx->Fail(weight_ref.pointer(), "must be > 0");
      return;
    }
    scenario->queue_params.fair_share_weights.emplace_back(ns, *weight);
  }
}

// `las`: thresholds_gpu_s (ascending, > 0, at least one) and promote_after_s (> 0).
void LoadLas(LoadContext* ctx, const JsonRef& ref, QueueOrderParams* params) {
  ObjectReader r(ctx, ref, {"thresholds_gpu_s", "promote_after_s"});
  if (!r.valid()) return;
  if (r.Has("thresholds_gpu_s")) {
    const JsonRef list = r.Field("thresholds_gpu_s");
    if (!ExpectArray(ctx, list)) return;
    if (list.value().empty()) return ctx->Fail(list.pointer(), "needs at least one threshold");
    params->las_thresholds_gpu_s.clear();
    for (size_t i = 0; i < list.value().size() && ctx->ok(); ++i) {
      const std::optional<double> t = ReadNumber(ctx, list.Element(i), 0);
      if (!t) return;
      const double floor =
          params->las_thresholds_gpu_s.empty() ? 0 : params->las_thresholds_gpu_s.back();
      if (*t <= floor) {
        return ctx->Fail(list.Element(i).pointer(),
                         "must be > " + FormatNumber(floor) + " (thresholds ascend from 0)");
      }
      params->las_thresholds_gpu_s.push_back(*t);
    }
  }
  if (r.Has("promote_after_s")) {
    const SimTime after = r.Seconds("promote_after_s", SimTime::Zero());
    if (ctx->ok() && after <= SimTime::Zero()) {
      return ctx->Fail(r.Field("promote_after_s").pointer(), "must be > 0");
    }
    params->las_promote_after = after;
  }
}

// A discipline's section is an error under another queue order: it would be ignored.
bool SectionFits(LoadContext* ctx, const ObjectReader& scheduler, const Scenario& scenario,
                 std::string_view section, std::string_view order) {
  if (!scheduler.Has(section) || !ctx->ok()) return false;
  if (scenario.queue_order == order) return true;
  ctx->Fail(scheduler.Field(section).pointer(),
            "needs scheduler.queue_order '" + std::string(order) + "'");
  return false;
}

}  // namespace

void LoadQueueDisciplines(LoadContext* ctx, const ObjectReader& scheduler, Scenario* scenario) {
  if (SectionFits(ctx, scheduler, *scenario, "fair_share", "fair-share")) {
    ObjectReader r(ctx, scheduler.Field("fair_share"), {"weights"});
    if (r.valid() && r.Has("weights")) LoadFairShareWeights(ctx, r.Field("weights"), scenario);
  }
  if (SectionFits(ctx, scheduler, *scenario, "las", "las")) {
    LoadLas(ctx, scheduler.Field("las"), &scenario->queue_params);
  }
}

}  // namespace migsim::io
