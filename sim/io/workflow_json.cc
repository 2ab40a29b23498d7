// Workloads of kind "Workflow": an Argo-style DAG of steps.

#include <algorithm>

#include "sim/io/input_limits.h"
#include "sim/io/scenario_sections_json.h"
#include "workloads/workflow_graph.h"

namespace migsim::io {
namespace {

std::vector<int> LoadDepends(LoadContext* ctx, const JsonRef& ref,
                             const std::vector<std::string>& steps) {
  std::vector<int> depends;
  if (!ExpectArray(ctx, ref)) return depends;
  for (size_t i = 0; i < ref.value().size(); ++i) {
    const JsonRef element = ref.Element(i);
    std::optional<std::string> name = ReadString(ctx, element);
    if (!name) return depends;
    const auto it = std::find(steps.begin(), steps.end(), *name);
    if (it == steps.end()) {
      ctx->Fail(element.pointer(), UnknownNameMessage("step", *name, steps));
      return depends;
    }
    const int index = static_cast<int>(it - steps.begin());
    if (std::find(depends.begin(), depends.end(), index) != depends.end()) {
      ctx->Fail(element.pointer(), "step '" + *name + "' is listed twice");
      return depends;
    }
    depends.push_back(index);
  }
  return depends;
}

RetryStrategy LoadRetry(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"limit", "policy"});
  RetryStrategy retry;
  r.Require("limit");
  retry.limit = static_cast<int>(r.Int("limit", 0, 0, CurrentInputLimits().pods_per_field));
  if (!r.Has("policy")) return retry;
  const std::string policy = r.String("policy");
  if (policy == "Always") {
    retry.policy = RetryPolicy::kAlways;
  } else if (policy == "OnFailure") {
    retry.policy = RetryPolicy::kOnFailure;
  } else if (policy == "OnError") {
    retry.policy = RetryPolicy::kOnError;
  } else if (ctx->ok()) {
    ctx->Fail(r.Field("policy").pointer(),
              UnknownNameMessage("retry policy", policy, {"Always", "OnFailure", "OnError"}));
  }
  return retry;
}

void LoadFanOut(LoadContext* ctx, ObjectReader* r, WorkflowStepSpec* step) {
  if (r->Has("fan_out") && r->Has("items")) {
    ctx->Fail(r->object().pointer(), "give either 'fan_out' or 'items', not both");
  } else if (r->Has("fan_out")) {
    const int64_t n = r->Int("fan_out", 1, 1, CurrentInputLimits().pods_per_field);
    for (int64_t i = 0; i < n && ctx->ok(); ++i) step->items.push_back(std::to_string(i));
  } else if (r->Has("items")) {
    step->items = LoadWorkflowItems(ctx, r->Field("items"));
  }
}

WorkflowStepSpec LoadStep(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                          const std::vector<std::string>& steps, Scenario* scenario) {
  ObjectReader r(ctx, ref, {"template", "depends", "fan_out", "items", "retry"});
  WorkflowStepSpec step;
  step.name = name;
  if (r.Require("template")) {
    step.tmpl = LoadPodTemplate(ctx, r.Field("template"), TemplateRun::kJobClass, scenario);
  }
  if (r.Has("depends")) step.depends = LoadDepends(ctx, r.Field("depends"), steps);
  LoadFanOut(ctx, &r, &step);
  if (r.Has("retry")) step.retry = LoadRetry(ctx, r.Field("retry"));
  return step;
}

void LoadSteps(LoadContext* ctx, const JsonRef& ref, Scenario* scenario, WorkflowSpec* workflow) {
  if (!ExpectNamedObject(ctx, ref, "step")) return;
  if (ref.value().empty()) {
    ctx->Fail(ref.pointer(), "must have at least one step");
    return;
  }
  std::vector<std::string> names;
  for (const auto& [name, value] : ref.value().items()) names.push_back(name);
  for (const std::string& name : names) {
    workflow->steps.push_back(LoadStep(ctx, name, ref.Member(name), names, scenario));
    if (!ctx->ok()) return;
  }
}

}  // namespace

std::vector<std::string> LoadWorkflowItems(LoadContext* ctx, const JsonRef& ref) {
  std::vector<std::string> items;
  if (!ExpectArray(ctx, ref)) return items;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must not be empty");
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    const Json& item = ref.value()[i];
    if (item.is_string()) {
      items.push_back(item.get<std::string>());
    } else if (item.is_number()) {
      items.push_back(item.dump());
    } else {
      ctx->Fail(ref.Element(i).pointer(), "expected a string or a number, got " + TypeName(item));
    }
  }
  return items;
}

void LoadWorkflow(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                  Scenario* scenario) {
  ObjectReader r(ctx, ref, {"kind", "namespace", "at_s", "parallelism", "step_delay_s", "steps"});
  WorkflowSpec workflow;
  workflow.name = name;
  workflow.at = r.Seconds("at_s", SimTime::Zero());
  workflow.parallelism =
      static_cast<int>(r.Int("parallelism", 0, 0, CurrentInputLimits().pods_per_field));
  workflow.step_delay = r.Seconds("step_delay_s", SimTime::Zero());
  if (!r.Require("steps") || !ctx->ok()) return;
  const JsonRef steps = r.Field("steps");
  LoadSteps(ctx, steps, scenario, &workflow);
  if (!ctx->ok()) return;
  if (Status graph = ValidateWorkflowGraph(workflow); !graph.ok()) {
    ctx->Fail(steps.pointer(), graph.message());
    return;
  }
  scenario->workloads.emplace_back(std::move(workflow));
}

}  // namespace migsim::io
