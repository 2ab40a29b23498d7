// The parameters of the queue disciplines in `scheduler`: fair_share (and the preemptive
// disciplines' own sections).

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

}  // namespace

void LoadQueueDisciplines(LoadContext* ctx, const ObjectReader& scheduler, Scenario* scenario) {
  if (scheduler.Has("fair_share") && ctx->ok()) {
    const JsonRef ref = scheduler.Field("fair_share");
    if (scenario->queue_order != "fair-share") {
      ctx->Fail(ref.pointer(), "needs scheduler.queue_order 'fair-share'");
      return;
    }
    ObjectReader r(ctx, ref, {"weights"});
    if (r.valid() && r.Has("weights")) LoadFairShareWeights(ctx, r.Field("weights"), scenario);
  }
}

}  // namespace migsim::io
