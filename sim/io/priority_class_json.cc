// `priority_classes` (PriorityClass objects) and `scheduler` (kube-scheduler's queue
// settings and the queue discipline), and a template's priorityClassName.

#include <algorithm>

#include "policies/queue/queue_orders.h"
#include "sim/core/text.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// The classes every Kubernetes cluster has.
std::vector<PriorityClass> SystemClasses() {
  return {{std::string(kSystemClusterCritical), kSystemClusterCriticalValue, false,
           PreemptionPolicy::kPreemptLowerPriority},
          {std::string(kSystemNodeCritical), kSystemNodeCriticalValue, false,
           PreemptionPolicy::kPreemptLowerPriority}};
}

PreemptionPolicy ReadPreemptionPolicy(LoadContext* ctx, ObjectReader& r) {
  const std::string text = r.String("preemptionPolicy", "PreemptLowerPriority");
  if (text == "Never") return PreemptionPolicy::kNever;
  if (text != "PreemptLowerPriority" && ctx->ok()) {
    ctx->Fail(r.Field("preemptionPolicy").pointer(),
              "unknown preemptionPolicy '" + text + "' (valid: PreemptLowerPriority, Never)");
  }
  return PreemptionPolicy::kPreemptLowerPriority;
}

PriorityClass LoadClass(LoadContext* ctx, const std::string& name, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"value", "globalDefault", "preemptionPolicy", "description"});
  PriorityClass klass;
  klass.name = name;
  if (!r.valid()) return klass;
  if (!IsPlainName(name)) {
    ctx->Fail(ref.pointer(), "a priority class name is letters, digits, '.', '_' and '-'");
  } else if (name.rfind("system-", 0) == 0) {
    ctx->Fail(ref.pointer(),
              "names starting with 'system-' are reserved for the system's "
              "classes (system-cluster-critical, system-node-critical)");
  }
  r.Require("value");
  klass.value = static_cast<int32_t>(r.Int("value", 0, -kMaxUserPriority - 1, kMaxUserPriority));
  klass.global_default = r.Bool("globalDefault", false);
  klass.preemption = ReadPreemptionPolicy(ctx, r);
  r.String("description");
  return klass;
}

}  // namespace

void LoadPriorityClasses(LoadContext* ctx, const JsonRef* classes,
                         std::vector<PriorityClass>* out) {
  *out = SystemClasses();
  if (classes == nullptr) return;
  const JsonRef& ref = *classes;
  if (!ExpectNamedObject(ctx, ref, "priority class")) return;
  std::string default_name;
  for (const auto& [name, value] : ref.value().items()) {
    if (!ctx->ok()) return;
    PriorityClass klass = LoadClass(ctx, name, ref.Member(name));
    if (klass.global_default && ctx->ok()) {
      if (!default_name.empty()) {
        ctx->Fail(
            ref.Member(name).PointerTo("globalDefault"),
            "only one priority class may be globalDefault ('" + default_name + "' already is)");
      }
      default_name = name;
    }
    out->push_back(std::move(klass));
  }
}

void ApplyPriorityClass(LoadContext* ctx, const ObjectReader& r, const Scenario& scenario,
                        PodTemplate* pod) {
  const std::vector<PriorityClass>& classes = scenario.priority_classes;
  auto apply = [pod, &classes](size_t i) {
    pod->priority = classes[i].value;
    pod->priority_class = static_cast<int32_t>(i);
    pod->preempts = classes[i].preemption == PreemptionPolicy::kPreemptLowerPriority;
  };
  if (!r.Has("priorityClassName")) {
    // Without a class a pod gets the globalDefault one, else priority 0 (and may preempt).
    for (size_t i = 0; i < classes.size(); ++i) {
      if (classes[i].global_default) apply(i);
    }
    return;
  }
  const JsonRef field = r.Field("priorityClassName");
  std::optional<std::string> name = ReadString(ctx, field);
  if (!name) return;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i].name == *name) return apply(i);
  }
  std::vector<std::string> names;
  for (const PriorityClass& c : classes) names.push_back(c.name);
  ctx->Fail(field.pointer(), UnknownNameMessage("priority class", *name, names));
}

namespace {

// Why `policy` cannot give the queue order "policy".
std::string PolicyWithoutQueueOrder(const PolicySpec& policy) {
  const std::string why =
      policy.library.empty()
          ? "policy '" + policy.name + "' is built in, and no built-in policy supplies one"
          : "policy library '" + policy.library + "' does not export migsim_policy_queue_less";
  return "'policy' takes the queue order from the scenario's policy, but " + why +
         " (name a queue order instead, or use a library of plugin ABI version 2 that exports it)";
}

}  // namespace

void LoadScheduler(LoadContext* ctx, const JsonRef& ref, Scenario* scenario) {
  ObjectReader r(ctx, ref,
                 {"queue_order", "pod_initial_backoff_s", "pod_max_backoff_s",
                  "pod_max_in_unschedulable_pods_duration_s", "percentage_of_nodes_to_score",
                  "fair_share", "las"});
  if (!r.valid()) return;
  SchedulerConfig& config = scenario->scheduler;
  config.pod_initial_backoff = r.Seconds("pod_initial_backoff_s", config.pod_initial_backoff);
  config.pod_max_backoff = r.Seconds("pod_max_backoff_s", config.pod_max_backoff);
  config.pod_max_in_unschedulable =
      r.Seconds("pod_max_in_unschedulable_pods_duration_s", config.pod_max_in_unschedulable);
  config.percentage_of_nodes_to_score = static_cast<int32_t>(
      r.Int("percentage_of_nodes_to_score", config.percentage_of_nodes_to_score, 0, 100));
  if (ctx->ok() && config.pod_max_backoff < config.pod_initial_backoff) {
    ctx->Fail(r.Field("pod_max_backoff_s").pointer(),
              "must be >= pod_initial_backoff_s (" +
                  FormatNumber(config.pod_initial_backoff.seconds()) + ")");
  }
  if (r.Has("queue_order")) {
    scenario->queue_order = r.NonEmptyString("queue_order");
    const std::vector<std::string> valid = QueueOrderNames();
    if (ctx->ok() && std::find(valid.begin(), valid.end(), scenario->queue_order) == valid.end()) {
      ctx->Fail(r.Field("queue_order").pointer(),
                UnknownNameMessage("queue order", scenario->queue_order, valid));
    }
    if (ctx->ok() && scenario->queue_order == kPolicyQueueOrder &&
        !scenario->policy.supplies_queue_order) {
      ctx->Fail(r.Field("queue_order").pointer(), PolicyWithoutQueueOrder(scenario->policy));
    }
  }
  LoadQueueDisciplines(ctx, r, scenario);
}

}  // namespace migsim::io
