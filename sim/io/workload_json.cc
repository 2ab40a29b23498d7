// `workloads`: bare pods, Deployments and Jobs (Workflows are in workflow_json.cc, Traces in
// trace_json.cc, Arrivals in arrivals_json.cc, DistributedJobs in distributed_job_json.cc).

#include <algorithm>
#include <cctype>

#include "sim/io/input_limits.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// Reads `template` when present (it is required everywhere).
TemplateId RequireTemplate(LoadContext* ctx, ObjectReader* r, TemplateRun run, Scenario* scenario) {
  if (!r->Require("template")) return TemplateId::Invalid();
  return LoadPodTemplate(ctx, r->Field("template"), run, scenario);
}

}  // namespace

std::vector<ScaleEvent> LoadScale(LoadContext* ctx, const JsonRef& ref, SimTime start) {
  std::vector<ScaleEvent> events;
  if (!ExpectArray(ctx, ref)) return events;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    ObjectReader r(ctx, ref.Element(i), {"at_s", "replicas"});
    r.Require("at_s");
    r.Require("replicas");
    const ScaleEvent event{
        .at = r.Seconds("at_s", start),
        .replicas = static_cast<int>(r.Int("replicas", 0, 0, CurrentInputLimits().pods_per_field))};
    if (ctx->ok() && event.at < start) {
      ctx->Fail(r.Field("at_s").pointer(),
                "must be >= the Deployment's at_s (" + FormatNumber(start.seconds()) + ")");
    }
    events.push_back(event);
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const ScaleEvent& a, const ScaleEvent& b) { return a.at < b.at; });
  return events;
}

namespace {

void LoadPodGroup(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                  Scenario* scenario) {
  ObjectReader r(ctx, ref, {"kind", "namespace", "at_s", "count", "template"});
  PodGroupSpec spec;
  spec.name = name;
  spec.at = r.Seconds("at_s", SimTime::Zero());
  spec.count = static_cast<int>(r.Int("count", 1, 1, CurrentInputLimits().pods_per_field));
  spec.tmpl = RequireTemplate(ctx, &r, TemplateRun::kJobClass, scenario);
  if (ctx->ok()) scenario->workloads.emplace_back(std::move(spec));
}

void LoadDeployment(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                    Scenario* scenario) {
  ObjectReader r(ctx, ref, {"kind", "namespace", "at_s", "replicas", "scale", "hpa", "template"});
  DeploymentSpec spec;
  spec.name = name;
  spec.at = r.Seconds("at_s", SimTime::Zero());
  spec.replicas = static_cast<int>(r.Int("replicas", 1, 0, CurrentInputLimits().pods_per_field));
  if (r.Has("scale") && r.Has("hpa") && ctx->ok()) {
    ctx->Fail(r.Field("hpa").pointer(), "give either scale or hpa, not both");
  }
  if (r.Has("scale") && ctx->ok()) {
    spec.scale = r.Field("scale").value().is_string()
                     ? LoadScaleCsv(ctx, r.Field("scale"), spec.at)
                     : LoadScale(ctx, r.Field("scale"), spec.at);
  }
  if (r.Has("hpa") && ctx->ok()) LoadHpa(ctx, r.Field("hpa"), scenario->horizon, &spec);
  spec.tmpl = RequireTemplate(ctx, &r, TemplateRun::kForever, scenario);
  if (ctx->ok()) scenario->workloads.emplace_back(std::move(spec));
}

void LoadJob(LoadContext* ctx, const std::string& name, const JsonRef& ref, Scenario* scenario) {
  ObjectReader r(ctx, ref,
                 {"kind", "namespace", "at_s", "completions", "parallelism", "backoff_limit",
                  "podFailurePolicy", "template", "queue_name"});
  JobSpec spec;
  spec.name = name;
  spec.at = r.Seconds("at_s", SimTime::Zero());
  spec.completions =
      static_cast<int>(r.Int("completions", 1, 1, CurrentInputLimits().pods_per_field));
  spec.parallelism =
      static_cast<int>(r.Int("parallelism", 1, 1, CurrentInputLimits().pods_per_field));
  spec.backoff_limit =
      static_cast<int>(r.Int("backoff_limit", 6, 0, CurrentInputLimits().pods_per_field));
  if (r.Has("podFailurePolicy")) {
    spec.on_disruption = LoadPodFailurePolicy(ctx, r.Field("podFailurePolicy"));
  }
  spec.tmpl = RequireTemplate(ctx, &r, TemplateRun::kJobClass, scenario);
  if (ctx->ok()) scenario->workloads.emplace_back(std::move(spec));
}

// The kind decides which fields are allowed, so it is read before anything else. The
// workload's `namespace` goes on every template it made; `queue_name` is looked up in it.
void LoadWorkloadOfKind(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                        Scenario* scenario);

void LoadWorkload(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                  Scenario* scenario) {
  const size_t first_template = scenario->templates.size();
  LoadWorkloadOfKind(ctx, name, ref, scenario);
  if (!ctx->ok()) return;
  int32_t ns = 0;
  if (ref.value().contains("namespace")) {
    ns = ReadNamespace(ctx, ref.Member("namespace"), scenario);
    for (size_t t = first_template; t < scenario->templates.size(); ++t) {
      scenario->templates[t].namespace_index = ns;
    }
  }
  // Only kinds Kueue manages accept `queue_name` (their ObjectReader's fields).
  if (!ctx->ok() || scenario->workloads.empty() || !ref.value().contains("queue_name")) return;
  int32_t* local_queue = nullptr;
  if (auto* job = std::get_if<JobSpec>(&scenario->workloads.back())) {
    local_queue = &job->local_queue;
  } else if (auto* dj = std::get_if<DistributedJobSpec>(&scenario->workloads.back())) {
    local_queue = &dj->local_queue;
  }
  if (local_queue != nullptr) {
    *local_queue = ReadQueueName(ctx, ref.Member("queue_name"), ns, *scenario);
  }
}

void LoadWorkloadOfKind(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                        Scenario* scenario) {
  if (!ExpectObject(ctx, ref)) return;
  if (!ref.value().contains("kind")) {
    ctx->Fail(ref.pointer(), "missing required field 'kind'");
    return;
  }
  const JsonRef kind_ref = ref.Member("kind");
  const std::optional<std::string> kind = ReadString(ctx, kind_ref);
  if (!kind) return;
  if (*kind == "Pod") {
    LoadPodGroup(ctx, name, ref, scenario);
  } else if (*kind == "Deployment") {
    LoadDeployment(ctx, name, ref, scenario);
  } else if (*kind == "Job") {
    LoadJob(ctx, name, ref, scenario);
  } else if (*kind == "Workflow") {
    LoadWorkflow(ctx, name, ref, scenario);
  } else if (*kind == "Trace") {
    LoadTrace(ctx, name, ref, scenario);
  } else if (*kind == "Arrivals") {
    LoadArrivals(ctx, name, ref, scenario);
  } else if (*kind == "DistributedJob") {
    LoadDistributedJob(ctx, name, ref, scenario);
  } else {
    ctx->Fail(kind_ref.pointer(), UnknownNameMessage("workload kind", *kind,
                                                     {"Pod", "Deployment", "Job", "Workflow",
                                                      "Trace", "Arrivals", "DistributedJob"}));
  }
}

}  // namespace

bool IsNamespaceName(std::string_view name) {
  return !name.empty() && name.size() <= 63 &&
         std::isalnum(static_cast<unsigned char>(name.front())) &&
         std::isalnum(static_cast<unsigned char>(name.back())) &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (std::isalnum(static_cast<unsigned char>(c)) &&
                   !std::isupper(static_cast<unsigned char>(c))) ||
                  c == '-';
         });
}

int32_t InternNamespace(const std::string& name, Scenario* scenario) {
  if (!IsNamespaceName(name)) return -1;
  std::vector<std::string>& names = scenario->namespaces;
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<int32_t>(it - names.begin());
  names.push_back(name);
  return static_cast<int32_t>(names.size() - 1);
}

std::string NamespaceMessage(const std::string& name) {
  return "namespace '" + name +
         "' must be 1 to 63 lowercase letters, digits and '-', starting and ending with a letter "
         "or digit";
}

int32_t ReadNamespace(LoadContext* ctx, const JsonRef& ref, Scenario* scenario) {
  const std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return 0;
  const int32_t index = InternNamespace(*name, scenario);
  if (index < 0) {
    ctx->Fail(ref.pointer(), NamespaceMessage(*name));
    return 0;
  }
  return index;
}

void LoadWorkloads(LoadContext* ctx, const JsonRef& workloads, Scenario* scenario) {
  if (!ExpectNamedObject(ctx, workloads, "workload")) return;
  for (const auto& [name, value] : workloads.value().items()) {
    LoadWorkload(ctx, name, workloads.Member(name), scenario);
    if (!ctx->ok()) return;
  }
}

}  // namespace migsim::io
