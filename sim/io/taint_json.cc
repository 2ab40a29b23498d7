// Node pools' `taints` and pod templates' `tolerations` (sim/policy/taint.h).

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

std::optional<TaintEffect> ReadEffect(LoadContext* ctx, const JsonRef& ref) {
  const std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return std::nullopt;
  const std::optional<TaintEffect> effect = ParseTaintEffect(*name);
  if (!effect) {
    ctx->Fail(ref.pointer(), UnknownNameMessage("taint effect", *name,
                                                {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
  }
  return effect;
}

Toleration ReadToleration(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"key", "operator", "value", "effect", "tolerationSeconds"});
  Toleration t;
  t.key = r.String("key");
  const std::string op = r.String("operator", "Equal");
  if (op == "Exists") {
    t.op = TolerationOperator::kExists;
  } else if (op != "Equal" && ctx->ok()) {
    ctx->Fail(r.Field("operator").pointer(),
              UnknownNameMessage("toleration operator", op, {"Equal", "Exists"}));
  }
  t.value = r.String("value");
  if (r.Has("effect")) t.effect = ReadEffect(ctx, r.Field("effect"));
  // Only evictions by taints added during a run would use it; taints are fixed.
  r.Seconds("tolerationSeconds", SimTime::Zero());
  if (const std::string problem = TolerationProblem(t); !problem.empty() && ctx->ok()) {
    ctx->Fail(ref.pointer(), problem);
  }
  return t;
}

}  // namespace

Taints ReadTaints(LoadContext* ctx, const JsonRef& ref) {
  Taints taints;
  if (!ExpectArray(ctx, ref)) return taints;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    ObjectReader r(ctx, ref.Element(i), {"key", "value", "effect"});
    Taint taint;
    taint.key = r.NonEmptyString("key");
    taint.value = r.String("value");
    if (r.Require("effect"))
      taint.effect = ReadEffect(ctx, r.Field("effect")).value_or(taint.effect);
    taints.push_back(std::move(taint));
  }
  return taints;
}

Tolerations ReadTolerations(LoadContext* ctx, const JsonRef& ref) {
  Tolerations tolerations;
  if (!ExpectArray(ctx, ref)) return tolerations;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    tolerations.push_back(ReadToleration(ctx, ref.Element(i)));
  }
  return tolerations;
}

}  // namespace migsim::io
