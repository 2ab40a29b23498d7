// Manifest objects onto the scenario's own specs: a Pod becomes a PodGroupSpec (or, with
// restartPolicy Always, a Deployment of one), Deployments, ReplicaSets and StatefulSets
// DeploymentSpecs, a Job a JobSpec, a CronJob one JobSpec per scheduled run, so the engine
// runs them with the controllers it has.

#include "sim/io/k8s/manifest_scenario.h"

#include <algorithm>
#include <map>
#include <set>

#include "sim/core/cron_schedule.h"
#include "sim/controllers/node_groups/autoscaler_annotations.h"
#include "sim/io/input_limits.h"
#include "sim/io/k8s/argo_workflow.h"
#include "sim/io/k8s/device_plugin_config_map.h"
#include "sim/io/k8s/manifest_dra.h"
#include "sim/io/k8s/manifest_overlay.h"
#include "sim/io/k8s/manifest_training.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

using k8s::ErrorAt;
using k8s::ManifestObject;
using k8s::ManifestPlace;
using k8s::PodTemplateModel;

void FailAt(LoadContext* ctx, const ManifestPlace& place, const std::string& message) {
  ctx->Fail(ErrorAt(place, message));
}

std::string ClassNames(const Scenario& s) {
  std::string names;
  for (const PriorityClass& c : s.priority_classes) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

void ApplyClass(const ManifestContext& c, const PodTemplateModel& m, PodTemplate* pod) {
  const std::vector<PriorityClass>& classes = c.scenario->priority_classes;
  for (size_t i = 0; i < classes.size(); ++i) {
    const bool named = m.spec.priority_class.empty() ? classes[i].global_default
                                                     : classes[i].name == m.spec.priority_class;
    if (!named) continue;
    pod->priority = classes[i].value;
    pod->priority_class = static_cast<int32_t>(i);
    pod->preempts = classes[i].preemption == PreemptionPolicy::kPreemptLowerPriority;
    return;
  }
  if (!m.spec.priority_class.empty()) {
    FailAt(c.ctx, m.spec.priority_place,
           "unknown priority class '" + m.spec.priority_class +
               "' (valid: " + ClassNames(*c.scenario) + ")");
  }
}

JobClassId JobClassOf(const ManifestContext& c, const ManifestObject& o, const PodTemplateModel& m,
                      bool needs_run) {
  std::vector<std::string> images;
  for (const k8s::ContainerImage& i : m.spec.images) images.push_back(i.image);
  if (const std::optional<JobClassId> id = c.overlay.JobClassFor(o.name, m.labels, images)) {
    return *id;
  }
  if (needs_run) {
    const ManifestPlace& where = m.spec.images.empty() ? m.place : m.spec.images.front().place;
    FailAt(c.ctx, where,
           "no job class for " + o.kind + " '" + o.name + "' (image '" +
               (images.empty() ? "" : images.front()) +
               "'): its pods need a run time; add a rule to manifest_overlay.job_classes "
               "matching its image, a label of its pods or its name");
  }
  return JobClassId::Invalid();
}

PodRequests Requests(const ManifestContext& c, const PodTemplateModel& m) {
  PodRequests r{.cpu_milli = m.spec.cpu_milli, .memory_mib = m.spec.memory_mib, .extended = {}};
  for (const auto& [name, count] : m.spec.extended) {
    r.extended.push_back({c.scenario->resources.Intern(name), count});
  }
  std::sort(
      r.extended.begin(), r.extended.end(),
      [](const ResourceRequest& a, const ResourceRequest& b) { return a.resource < b.resource; });
  return r;
}

TemplateId AddTemplate(const ManifestContext& c, const ManifestObject& o, const PodTemplateModel& m,
                       bool forever) {
  PodTemplate pod;
  pod.runs_forever = forever;
  pod.job_class = JobClassOf(c, o, m, !forever);
  pod.requests = Requests(c, m);
  pod.node_selector = m.spec.node_selector;
  pod.node_affinity = m.spec.node_affinity;
  pod.tolerations = m.spec.tolerations;
  if (!m.spec.claims.empty()) {
    PodClaims claims = ManifestPodClaims(c.ctx, c.set, o.ns, m.spec, *c.scenario);
    pod.resource_claims = std::move(claims.own);
    pod.shared_claims = std::move(claims.shared);
  }
  pod.labels = m.labels;
  if (const std::optional<std::string> bad = ApplyAutoscalerAnnotations(m.annotations, &pod)) {
    FailAt(c.ctx, m.place, *bad);
  }
  if (m.spec.termination_grace) pod.termination_grace = *m.spec.termination_grace;
  pod.namespace_index = InternNamespace(o.ns, c.scenario);
  if (pod.namespace_index < 0) FailAt(c.ctx, o.place, NamespaceMessage(o.ns));
  if (c.ctx->ok()) ApplyClass(c, m, &pod);
  if (!c.ctx->ok()) return TemplateId::Invalid();
  c.scenario->templates.push_back(std::move(pod));
  return TemplateId(static_cast<TemplateId::Rep>(c.scenario->templates.size() - 1));
}

JobSpec MakeJob(const ManifestContext& c, const ManifestObject& o, const k8s::JobObject& j,
                std::string name, SimTime at) {
  return JobSpec{.name = std::move(name),
                 .at = at,
                 .completions = j.completions,
                 .parallelism = j.parallelism,
                 .backoff_limit = j.backoff_limit,
                 .tmpl = AddTemplate(c, o, j.pod, false),
                 .on_disruption = j.on_disruption,
                 .local_queue = -1};
}

// The scheduled runs of `schedule` in [at, horizon); nullopt after reporting a problem.
std::optional<std::vector<SimTime>> ScheduledRuns(const ManifestContext& c, const ManifestObject& o,
                                                  const std::string& schedule,
                                                  const ManifestPlace& place, SimTime at) {
  if (c.scenario->horizon == SimTime::Max()) {
    FailAt(c.ctx, place,
           "a " + o.kind + " runs on its schedule until the horizon: the scenario needs horizon_s");
    return std::nullopt;
  }
  Result<CronSchedule> parsed = CronSchedule::Parse(schedule);
  if (!parsed.ok()) {
    FailAt(c.ctx, place, parsed.status().message());
    return std::nullopt;
  }
  std::vector<SimTime> times = parsed.value().Times(
      at, c.scenario->horizon, static_cast<size_t>(CurrentInputLimits().pods_per_field));
  if (times.size() > static_cast<size_t>(CurrentInputLimits().pods_per_field)) {
    FailAt(c.ctx, place,
           "more than " + std::to_string(CurrentInputLimits().pods_per_field) +
               " runs before the horizon");
    return std::nullopt;
  }
  return times;
}

void AddCronJob(const ManifestContext& c, const ManifestObject& o, const k8s::CronJobObject& cron,
                SimTime at) {
  if (cron.concurrency != k8s::ConcurrencyPolicy::kAllow) {
    return FailAt(c.ctx, cron.schedule_place,
                  "concurrencyPolicy Forbid and Replace are not modelled yet (use Allow)");
  }
  const std::optional<std::vector<SimTime>> times =
      ScheduledRuns(c, o, cron.schedule, cron.schedule_place, at);
  for (const SimTime t : times.value_or(std::vector<SimTime>{})) {
    // Kubernetes names each Job after its scheduled time in minutes since the Unix epoch.
    const int64_t minute = (kCronEpoch + t.micros() / 1'000'000) / 60;
    c.scenario->workloads.emplace_back(
        MakeJob(c, o, cron.job, o.name + "-" + std::to_string(minute), t));
    if (!c.ctx->ok()) return;
  }
}

bool NamesStep(const k8s::FlatWorkflow& flat, const std::string& step) {
  return std::find(flat.params_used.begin(), flat.params_used.end(), step) !=
         flat.params_used.end();
}

WorkflowSpec MakeWorkflow(const ManifestContext& c, const ManifestObject& o,
                          const k8s::FlatWorkflow& flat, std::string name, SimTime at,
                          SimTime step_delay) {
  WorkflowSpec w{.name = std::move(name),
                 .at = at,
                 .parallelism = flat.parallelism,
                 .step_delay = step_delay,
                 .steps = {}};
  for (const k8s::FlatStep& s : flat.steps) {
    w.steps.push_back(WorkflowStepSpec{.name = s.name,
                                       .tmpl = AddTemplate(c, o, *s.pod, false),
                                       .depends = s.depends,
                                       .items = s.items,
                                       .retry = s.retry});
    if (!c.ctx->ok()) break;
  }
  return w;
}

// An Argo Workflow: its templates flattened into steps, each with a template of its own; a
// CronWorkflow, one such workflow per scheduled run.
void AddWorkflow(const ManifestContext& c, const ManifestObject& o, const ObjectOverlay* overlay,
                 SimTime at) {
  const ObjectOverlay none{};
  const ObjectOverlay& extra = overlay != nullptr ? *overlay : none;
  Result<k8s::FlatWorkflow> flat = k8s::FlattenWorkflow(
      o, c.set.objects, extra.params, "manifest_overlay.objects." + o.name + ".params");
  if (!flat.ok()) return c.ctx->Fail(flat.status());
  for (const auto& [step, items] : extra.params) {
    if (!NamesStep(flat.value(), step)) {
      return c.ctx->Fail(
          extra.pointer + "/params/" + step,
          "no step of workflow '" + o.name + "' named '" + step + "' fans out over a withParam");
    }
  }
  const SimTime delay = extra.step_delay.value_or(SimTime::Zero());
  const auto& w = std::get<k8s::WorkflowObject>(o.body);
  if (w.schedule.empty()) {
    return c.scenario->workloads.emplace_back(MakeWorkflow(c, o, flat.value(), o.name, at, delay)),
           void();
  }
  const std::optional<std::vector<SimTime>> times =
      ScheduledRuns(c, o, w.schedule, w.schedule_place, at);
  for (const SimTime t : times.value_or(std::vector<SimTime>{})) {
    // Argo names each run after its scheduled time in seconds since the Unix epoch.
    const int64_t second = kCronEpoch + t.micros() / 1'000'000;
    c.scenario->workloads.emplace_back(
        MakeWorkflow(c, o, flat.value(), o.name + "-" + std::to_string(second), t, delay));
    if (!c.ctx->ok()) return;
  }
}

void AddObject(const ManifestContext& c, const ManifestObject& o, const ObjectOverlay* overlay) {
  const SimTime at = overlay != nullptr ? overlay->at : SimTime::Zero();
  std::vector<WorkloadSpec>& out = c.scenario->workloads;
  if (std::holds_alternative<k8s::ReplicatedObject>(o.body) ||
      std::holds_alternative<k8s::CronJobObject>(o.body)) {
    ManifestLocalQueue(c, o);  // an error when it is labelled: not managed in migsim
    if (!c.ctx->ok()) return;
  }
  if (const auto* r = std::get_if<k8s::ReplicatedObject>(&o.body)) {
    DeploymentSpec d{.name = o.name,
                     .at = at,
                     .replicas = r->replicas,
                     .scale = {},
                     .tmpl = AddTemplate(c, o, r->pod, true)};
    if (overlay != nullptr && overlay->scale) d.scale = *overlay->scale;
    return out.emplace_back(std::move(d)), void();
  }
  if (std::holds_alternative<k8s::WorkflowObject>(o.body)) return AddWorkflow(c, o, overlay, at);
  if (overlay != nullptr && (overlay->step_delay || !overlay->params.empty())) {
    return c.ctx->Fail(
        overlay->pointer + (overlay->step_delay ? "/step_delay_s" : "/params"),
        "only Argo Workflows take step_delay_s and params; " + o.name + " is a " + o.kind);
  }
  if (overlay != nullptr && overlay->scale) {
    return c.ctx->Fail(
        overlay->pointer + "/scale",
        "only Deployments, ReplicaSets and StatefulSets scale; " + o.name + " is a " + o.kind);
  }
  if (AddGangOrQueuedPod(c, o, at)) return;
  if (const auto* p = std::get_if<k8s::PodObject>(&o.body)) {
    const std::string& policy = p->pod.spec.restart_policy;
    if (policy == "Never" || policy == "OnFailure") {
      out.emplace_back(PodGroupSpec{o.name, at, 1, AddTemplate(c, o, p->pod, false)});
    } else {  // restartPolicy Always (the default): its container never ends for good
      out.emplace_back(DeploymentSpec{o.name, at, 1, {}, AddTemplate(c, o, p->pod, true)});
    }
  } else if (const auto* j = std::get_if<k8s::JobObject>(&o.body)) {
    out.emplace_back(MakeJob(c, o, *j, o.name, at));
    std::get<JobSpec>(out.back()).local_queue = ManifestLocalQueue(c, o);
    if (c.ctx->ok()) CheckManifestAdmission(c, o);
  } else if (const auto* cron = std::get_if<k8s::CronJobObject>(&o.body)) {
    AddCronJob(c, o, *cron, at);
  }
}

// PodGroup members are the PodGroup's workload.
bool IsWorkload(const ManifestObject& o) {
  if (const auto* w = std::get_if<k8s::WorkflowObject>(&o.body)) return w->runs;
  return !std::holds_alternative<PriorityClass>(o.body) &&
         !std::holds_alternative<k8s::BudgetObject>(o.body) &&
         !std::holds_alternative<k8s::ConfigMapObject>(o.body) &&
         !std::holds_alternative<k8s::KueueObject>(o.body) &&
         !std::holds_alternative<k8s::DeviceClassObject>(o.body) &&
         !std::holds_alternative<k8s::ClaimTemplateObject>(o.body) &&
         !std::holds_alternative<k8s::SharedClaimObject>(o.body) && PodGroupOf(o).empty();
}

bool Agrees(const PriorityClass& a, const PriorityClass& b) {
  return a.value == b.value && a.preemption == b.preemption;
}

// "value 1000, preemptionPolicy Never, globalDefault".
std::string Describe(const PriorityClass& c) {
  std::string out = "value " + std::to_string(c.value);
  if (c.preemption == PreemptionPolicy::kNever) out += ", preemptionPolicy Never";
  if (c.global_default) out += ", globalDefault";
  return out;
}

std::set<std::string> WorkloadNames(const Scenario& s) {
  std::set<std::string> names;
  for (const WorkloadSpec& w : s.workloads) {
    names.insert(std::visit([](const auto& spec) { return spec.name; }, w));
  }
  return names;
}

}  // namespace

TemplateId AddManifestTemplate(const ManifestContext& c, const ManifestObject& o,
                               const PodTemplateModel& pod, bool forever) {
  return AddTemplate(c, o, pod, forever);
}

void AddManifestPriorityClasses(LoadContext* ctx, const k8s::ManifestSet& set, Scenario* scenario) {
  std::vector<PriorityClass>& classes = scenario->priority_classes;
  // Where each class of the manifests was defined; the others are the scenario's.
  std::map<std::string, k8s::ManifestPlace> manifest_places;
  for (const ManifestObject& o : set.objects) {
    const auto* pc = std::get_if<PriorityClass>(&o.body);
    if (pc == nullptr) continue;
    const auto same = std::find_if(classes.begin(), classes.end(),
                                   [&](const PriorityClass& c) { return c.name == pc->name; });
    const bool second_default =
        pc->global_default && std::any_of(classes.begin(), classes.end(), [&](const PriorityClass& c) {
          return c.global_default && c.name != pc->name;
        });
    if (second_default) {
      return FailAt(ctx, o.place, "a second globalDefault class (at most one is allowed)");
    }
    // A class two manifests define alike is one class, as `kubectl apply` of one object
    // twice leaves one. So is a class the scenario (say, written by migsim import, which
    // sees the value and preemption policy pods carry but not globalDefault) and a manifest
    // define with the same value and policy; the manifest's globalDefault holds.
    const auto m = manifest_places.find(pc->name);
    if (same != classes.end() && Agrees(*same, *pc) &&
        (m == manifest_places.end() || same->global_default == pc->global_default)) {
      same->global_default = same->global_default || pc->global_default;
      continue;
    }
    if (same != classes.end()) {
      const std::string other = m != manifest_places.end()
                                    ? m->second.ToString()
                                    : ctx->file() + " at /priority_classes/" + pc->name;
      return FailAt(ctx, o.place,
                    "priority class '" + pc->name + "' is defined twice, differently: here (" +
                        Describe(*pc) + ") and in " + other + " (" + Describe(*same) + ")");
    }
    classes.push_back(*pc);
    manifest_places.emplace(pc->name, o.place);
  }
}

void AddManifestWorkloads(LoadContext* ctx, const k8s::ManifestSet& set, const JsonRef* overlay_ref,
                          Scenario* scenario) {
  const ManifestOverlay overlay = overlay_ref != nullptr
                                      ? ReadManifestOverlay(ctx, *overlay_ref, *scenario)
                                      : ManifestOverlay{};
  std::set<std::string> names = WorkloadNames(*scenario), used;
  if (overlay.device_plugin && ctx->ok()) {
    ApplyDevicePluginConfigMap(ctx, set, *overlay.device_plugin, scenario);
  }
  const ManifestContext c{ctx, overlay, scenario, set};
  CheckPodGroupMembers(ctx, set);
  for (size_t i = 0; i < set.objects.size() && ctx->ok(); ++i) {
    const ManifestObject& o = set.objects[i];
    if (!IsWorkload(o)) continue;
    if (!names.insert(o.name).second) {
      return FailAt(ctx, o.place,
                    "a workload named '" + o.name +
                        "' exists already (workloads are named by metadata.name)");
    }
    const auto it = overlay.objects.find(o.name);
    if (it != overlay.objects.end()) used.insert(o.name);
    AddObject(c, o, it == overlay.objects.end() ? nullptr : &it->second);
  }
  for (const auto& [name, entry] : overlay.objects) {
    if (ctx->ok() && used.count(name) == 0) {
      ctx->Fail(entry.pointer, "no manifest workload is named '" + name + "'");
    }
  }
}

void AddManifestBudgets(LoadContext* ctx, const k8s::ManifestSet& set, Scenario* scenario) {
  for (const ManifestObject& o : set.objects) {
    const auto* b = std::get_if<k8s::BudgetObject>(&o.body);
    if (b == nullptr) continue;
    const int32_t ns = InternNamespace(o.ns, scenario);
    if (ns < 0) return FailAt(ctx, o.place, NamespaceMessage(o.ns));
    scenario->disruption_budgets.push_back(
        PodDisruptionBudget{.name = o.name,
                            .namespace_index = ns,
                            .match_labels = b->match_labels,
                            .min_available = b->min_available,
                            .max_unavailable = b->max_unavailable});
  }
}

}  // namespace migsim::io
