// Disruptions: `pod_disruption_budgets` (PodDisruptionBudget objects) and a Job's
// `podFailurePolicy` (scenarios/README.md).

#include <algorithm>
#include <cctype>

#include "sim/io/input_limits.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// An int or a percentage string such as "50%" (Kubernetes' IntOrString).
std::optional<BudgetAmount> ReadAmount(LoadContext* ctx, const JsonRef& ref) {
  const Json& value = ref.value();
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    const bool digits = text.size() >= 2 && text.size() <= 4 && text.back() == '%' &&
                        std::all_of(text.begin(), text.end() - 1, [](char c) {
                          return std::isdigit(static_cast<unsigned char>(c));
                        });
    const int percent = digits ? std::stoi(text.substr(0, text.size() - 1)) : -1;
    if (percent < 0 || percent > 100) {
      ctx->Fail(ref.pointer(),
                "expected an integer or a percentage from \"0%\" to \"100%\", got '" + text + "'");
      return std::nullopt;
    }
    return BudgetAmount{.value = percent, .percent = true};
  }
  const std::optional<int64_t> count = ReadInt(ctx, ref, 0, CurrentInputLimits().pods_per_field);
  if (!count) return std::nullopt;
  return BudgetAmount{.value = static_cast<int32_t>(*count), .percent = false};
}

PodDisruptionBudget LoadBudget(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                               Scenario* scenario) {
  ObjectReader r(ctx, ref, {"namespace", "selector", "minAvailable", "maxUnavailable"});
  PodDisruptionBudget budget{.name = name};
  if (!r.valid()) return budget;
  if (r.Has("namespace"))
    budget.namespace_index = ReadNamespace(ctx, r.Field("namespace"), scenario);
  if (r.Require("selector") && ctx->ok()) {
    ObjectReader selector(ctx, r.Field("selector"), {"matchLabels"});
    selector.Require("matchLabels");
    if (ctx->ok()) budget.match_labels = ReadLabels(ctx, selector.Field("matchLabels"));
  }
  if (ctx->ok() && r.Has("minAvailable") == r.Has("maxUnavailable")) {
    ctx->Fail(ref.pointer(), "give exactly one of minAvailable and maxUnavailable");
  }
  if (ctx->ok() && r.Has("minAvailable")) {
    budget.min_available = ReadAmount(ctx, r.Field("minAvailable"));
  }
  if (ctx->ok() && r.Has("maxUnavailable")) {
    budget.max_unavailable = ReadAmount(ctx, r.Field("maxUnavailable"));
  }
  return budget;
}

std::optional<DisruptionAction> ActionNamed(const std::string& name) {
  if (name == "Ignore") return DisruptionAction::kIgnore;
  if (name == "Count") return DisruptionAction::kCount;
  if (name == "FailJob") return DisruptionAction::kFailJob;
  return std::nullopt;
}

// A rule's onPodConditions: the simulation's only pod condition is DisruptionTarget.
void CheckConditions(LoadContext* ctx, const JsonRef& conditions) {
  if (!ExpectArray(ctx, conditions)) return;
  for (size_t c = 0; c < conditions.value().size() && ctx->ok(); ++c) {
    ObjectReader condition(ctx, conditions.Element(c), {"type", "status"});
    condition.Require("type");
    const std::string type = condition.String("type");
    if (condition.Has("status") && ctx->ok() && condition.String("status") != "True") {
      ctx->Fail(condition.Field("status").pointer(), "only status \"True\" is modelled");
    }
    if (ctx->ok() && type != "DisruptionTarget") {
      ctx->Fail(
          condition.Field("type").pointer(),
          "only the DisruptionTarget condition (a preempted pod) is modelled, not '" + type + "'");
    }
  }
}

}  // namespace

void LoadDisruptionBudgets(LoadContext* ctx, const JsonRef& ref, Scenario* scenario) {
  if (!ExpectNamedObject(ctx, ref, "disruption budget")) return;
  for (const auto& [name, value] : ref.value().items()) {
    PodDisruptionBudget budget = LoadBudget(ctx, name, ref.Member(name), scenario);
    if (!ctx->ok()) return;
    scenario->disruption_budgets.push_back(std::move(budget));
  }
}

// Every rule matches a preempted pod (each names DisruptionTarget), so the first decides.
DisruptionAction LoadPodFailurePolicy(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader policy(ctx, ref, {"rules"});
  policy.Require("rules");
  if (!ctx->ok() || !ExpectArray(ctx, policy.Field("rules"))) return DisruptionAction::kCount;
  const JsonRef rules = policy.Field("rules");
  std::optional<DisruptionAction> first;
  for (size_t i = 0; i < rules.value().size() && ctx->ok(); ++i) {
    ObjectReader rule(ctx, rules.Element(i), {"action", "onPodConditions"});
    rule.Require("action");
    rule.Require("onPodConditions");
    const std::string name = rule.String("action");
    if (!ctx->ok()) break;
    const std::optional<DisruptionAction> action = ActionNamed(name);
    if (!action) {
      ctx->Fail(rule.Field("action").pointer(),
                UnknownNameMessage("action", name, {"Ignore", "Count", "FailJob"}));
      break;
    }
    CheckConditions(ctx, rule.Field("onPodConditions"));
    if (!first) first = action;
  }
  return first.value_or(DisruptionAction::kCount);
}

}  // namespace migsim::io
