// Argo Workflows' Workflow, WorkflowTemplate and ClusterWorkflowTemplate: the templates, as
// written. Which templates run, and how they nest, is argo_workflow.cc's business: a
// template no task reaches may hold anything.

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <span>

#include "sim/io/k8s/argo_workflow.h"
#include "sim/io/k8s/pod_spec_model.h"
#include "sim/io/k8s/workload_objects.h"
#include "sim/io/yaml_documents.h"

namespace migsim::k8s {
namespace {

// Template fields that would change an outcome and that migsim does not model.
constexpr std::pair<std::string_view, std::string_view> kTemplateWarnings[] = {
    {"podSpecPatch", "not applied: the pod is as the template writes it"},
    {"activeDeadlineSeconds", "not modelled: the step runs to its end"},
    {"timeout", "not modelled: the step runs to its end"},
    {"synchronization", "semaphores and mutexes are not modelled"},
    {"memoize", "not modelled: the step always runs"},
    {"sidecars", "read as containers of the pod; they do not end the step"},
};

// Workflow spec fields that would change an outcome and that migsim does not model.
constexpr std::pair<std::string_view, std::string_view> kSpecWarnings[] = {
    {"onExit", "exit handlers are not run"},
    {"hooks", "lifecycle hooks are not run"},
    {"templateDefaults", "not applied to the templates"},
    {"podSpecPatch", "not applied: pods are as their templates write them"},
    {"activeDeadlineSeconds", "not modelled: the workflow runs to its end"},
    {"synchronization", "semaphores and mutexes are not modelled"},
    {"suspend", "not modelled: the workflow starts at once"},
};

void WarnAll(const ManifestNode& node, ManifestLog* log,
             std::span<const std::pair<std::string_view, std::string_view>> fields) {
  for (const auto& [field, why] : fields) {
    if (const ManifestNode f = node[field]; f.present()) f.Warn(log, std::string(why));
  }
}

// Argo's `limit` is an int-or-string: 10 and "10" are the same.
int ReadLimit(const ManifestNode& limit, ManifestLog* log) {
  if (limit.yaml().IsScalar() && limit.yaml().Tag() == "!") {
    YAML::Node plain(limit.yaml().Scalar());
    return static_cast<int>(ManifestNode(plain, limit.place()).Int(log, 0, 0, kMaxPods));
  }
  return static_cast<int>(limit.Int(log, 0, 0, kMaxPods));
}

}  // namespace

RetryStrategy ReadRetryStrategy(const ManifestNode& node, ManifestLog* log) {
  RetryStrategy out;
  if (!node.ExpectMap(log)) return out;
  const ManifestNode limit = node["limit"];
  if (!limit.present()) {
    node.Fail(log,
              "a retryStrategy without a limit retries for ever; migsim needs a limit (give "
              "'limit')");
    return out;
  }
  out.limit = ReadLimit(limit, log);
  const ManifestNode policy = node["retryPolicy"];
  constexpr RetryPolicy kPolicies[] = {RetryPolicy::kOnFailure, RetryPolicy::kAlways,
                                       RetryPolicy::kOnError, RetryPolicy::kOnError};
  const size_t choice =
      policy.Choice(log, "retryPolicy", {"OnFailure", "Always", "OnError", "OnTransientError"});
  out.policy = kPolicies[choice];
  if (choice == 3) {
    policy.Warn(log,
                "modelled as OnError: every system error (a node lost, an eviction, a "
                "preemption, a MIG device lost) counts as transient");
  }
  if (const ManifestNode b = node["backoff"]; b.present()) {
    b.Warn(log, "not modelled: a retry is created at once");
  }
  for (const char* field : {"affinity", "expression"}) {
    if (const ManifestNode f = node[field]; f.present()) f.Warn(log, "not modelled");
  }
  return out;
}

namespace {

// One `withItems` element as migsim names the pod's item: a scalar's text, else flow YAML.
std::string ItemText(const YAML::Node& item) {
  if (item.IsScalar()) return item.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << item;
  return out.c_str();
}

std::vector<std::string> ReadItems(const ManifestNode& list, ManifestLog* log) {
  std::vector<std::string> items;
  for (const ManifestNode& item : list.Elements(log)) items.push_back(ItemText(item.yaml()));
  if (log->ok() && items.empty()) list.Fail(log, "must not be empty");
  return items;
}

void ReadFanOut(const ManifestNode& task, ManifestLog* log, ArgoTask* out) {
  const ManifestNode items = task["withItems"], param = task["withParam"];
  if (items.present() && param.present()) {
    return task.Fail(log, "give either withItems or withParam, not both");
  }
  if (const ManifestNode seq = task["withSequence"]; seq.present()) {
    return seq.Fail(log, "withSequence is not modelled yet (use withItems or withParam)");
  }
  if (items.present()) {
    out->fan_out_place = items.place();
    out->items = ReadItems(items, log);
  } else if (param.present()) {
    out->fan_out_place = param.place();
    const std::string text = param.String(log);
    if (!log->ok()) return;
    // A literal JSON list is known from the manifest; an expression only when it runs.
    if (text.find("{{") == std::string::npos && text.starts_with("[")) {
      const Result<std::vector<YAML::Node>> parsed = LoadYamlDocuments(text, "withParam");
      if (!parsed.ok() || parsed.value().size() != 1 || !parsed.value()[0].IsSequence()) {
        return param.Fail(log, "not a JSON list: '" + text + "'");
      }
      out->items = ReadItems(ManifestNode(parsed.value()[0], param.place()), log);
    } else {
      out->with_param = text;
    }
  }
}

// `depends`: the simple form only, task names joined by &&, each optionally `.Succeeded`.
std::vector<std::string> ReadDepends(const ManifestNode& depends, ManifestLog* log) {
  std::vector<std::string> names;
  const std::string text = depends.String(log);
  size_t start = 0;
  while (log->ok() && start <= text.size()) {
    const size_t end = std::min(text.find("&&", start), text.size());
    std::string term = text.substr(start, end - start);
    term.erase(0, term.find_first_not_of(' '));
    term.erase(term.find_last_not_of(' ') + 1);
    if (term.ends_with(".Succeeded")) term.resize(term.size() - 10);
    const bool plain = !term.empty() && term.find_first_of(" ()|!.") == std::string::npos;
    if (!plain) {
      depends.Fail(log,
                   "only task names joined by && (each optionally .Succeeded) are "
                   "modelled, got '" +
                       text + "'");
    }
    names.push_back(term);
    start = end + 2;
  }
  return names;
}

ArgoTask ReadTask(const ManifestNode& task, bool dag, ManifestLog* log) {
  ArgoTask out;
  out.place = task.place();
  if (!task.ExpectMap(log)) return out;
  out.name = task["name"].String(log);
  if (log->ok() && out.name.empty()) return task.Fail(log, "missing required field 'name'"), out;
  const ManifestNode tmpl = task["template"], ref = task["templateRef"];
  if (tmpl.present() == ref.present()) {
    task.Fail(log, "give one of template and templateRef");
    return out;
  }
  out.template_place = tmpl.present() ? tmpl.place() : ref.place();
  out.template_name = tmpl.present() ? tmpl.String(log) : ref["template"].String(log);
  if (ref.present()) {
    out.template_ref = ref["name"].String(log);
    if (ref["clusterScope"].Bool(log, false)) out.template_ref = "cluster:" + out.template_ref;
  }
  if (const ManifestNode inline_tmpl = task["inline"]; inline_tmpl.present()) {
    inline_tmpl.Fail(log, "inline templates are not modelled yet (name a template)");
  }
  if (dag) {
    const ManifestNode deps = task["dependencies"], depends = task["depends"];
    if (deps.present() && depends.present()) task.Fail(log, "give dependencies or depends");
    out.depends_place = deps.present() ? deps.place() : depends.place();
    for (const ManifestNode& d : deps.Elements(log)) out.depends.push_back(d.String(log));
    if (depends.present()) out.depends = ReadDepends(depends, log);
  }
  ReadFanOut(task, log, &out);
  if (const ManifestNode when = task["when"]; when.present()) {
    when.Warn(log, "conditions are not evaluated: the task always runs");
  }
  for (const char* field : {"continueOn", "onExit", "hooks"}) {
    if (const ManifestNode f = task[field]; f.present()) f.Warn(log, "not modelled");
  }
  return out;
}

void ReadDag(const ManifestNode& dag, ManifestLog* log, ArgoTemplate* out) {
  out->kind = ArgoTemplateKind::kDag;
  if (!dag.ExpectMap(log)) return;
  for (const ManifestNode& t : dag["tasks"].Elements(log)) {
    out->tasks.push_back(ReadTask(t, true, log));
    if (!log->ok()) return;
  }
  if (out->tasks.empty()) dag["tasks"].Fail(log, "a dag needs at least one task");
  for (const char* field : {"target", "failFast"}) {
    if (const ManifestNode f = dag[field]; f.present()) f.Warn(log, "not modelled");
  }
}

void ReadSteps(const ManifestNode& steps, ManifestLog* log, ArgoTemplate* out) {
  out->kind = ArgoTemplateKind::kSteps;
  for (const ManifestNode& group : steps.Elements(log)) {
    std::vector<ArgoTask> parallel;
    for (const ManifestNode& step : group.Elements(log)) {
      parallel.push_back(ReadTask(step, false, log));
      if (!log->ok()) return;
    }
    if (log->ok() && parallel.empty()) return group.Fail(log, "a step group needs a step");
    out->groups.push_back(std::move(parallel));
  }
  if (log->ok() && out->groups.empty()) steps.Fail(log, "needs at least one step group");
}

Labels MergeLabels(Labels own, const Labels& defaults) {
  for (const auto& label : defaults) {
    const bool set =
        std::any_of(own.begin(), own.end(), [&](const auto& l) { return l.first == label.first; });
    if (!set) own.push_back(label);
  }
  std::sort(own.begin(), own.end());
  return own;
}

// container and script templates: one pod; its scheduling fields are the template's, or
// else the workflow's (`defaults`), as Argo's controller sets them.
void ReadPod(const ManifestNode& tmpl, const ManifestNode& main, const PodTemplateModel& defaults,
             ManifestLog* log, ArgoTemplate* out) {
  out->kind = ArgoTemplateKind::kPod;
  out->pod.place = tmpl.place();
  out->pod.labels = MergeLabels(tmpl["metadata"]["labels"].StringMap(log), defaults.labels);
  out->pod.annotations = tmpl["metadata"]["annotations"].StringMap(log);
  std::vector<ManifestNode> containers = {main};
  for (const ManifestNode& s : tmpl["sidecars"].Elements(log)) containers.push_back(s);
  PodSpecModel& spec = out->pod.spec;
  ReadContainerLists(containers, tmpl["initContainers"].Elements(log), log, &spec);
  ReadSchedulingFields(tmpl, log, &spec);
  const PodSpecModel& d = defaults.spec;
  if (!tmpl["nodeSelector"].present()) spec.node_selector = d.node_selector;
  if (!tmpl["affinity"].present()) spec.node_affinity = d.node_affinity;
  if (!tmpl["tolerations"].present()) spec.tolerations = d.tolerations;
  if (!tmpl["priorityClassName"].present()) {
    spec.priority_class = d.priority_class;
    spec.priority_place = d.priority_place;
  }
  spec.restart_policy = "Never";  // Argo's pods are never restarted in place
  WarnAll(tmpl, log, kTemplateWarnings);
}

// Template types without a pod of their own that migsim could run: an error if a task uses
// one (argo_workflow.cc).
constexpr std::string_view kOtherKinds[] = {"suspend", "resource", "data",
                                            "http",    "plugin",   "containerSet"};

ArgoTemplate ReadTemplate(const ManifestNode& tmpl, const PodTemplateModel& defaults,
                          ManifestLog* log) {
  ArgoTemplate out;
  out.place = tmpl.place();
  if (!tmpl.ExpectMap(log)) return out;
  out.name = tmpl["name"].String(log);
  if (log->ok() && out.name.empty()) return tmpl.Fail(log, "missing required field 'name'"), out;
  if (const ManifestNode p = tmpl["parallelism"]; p.present()) {
    out.parallelism = static_cast<int>(p.Int(log, 0, 1, kMaxPods));
    out.parallelism_place = p.place();
  }
  if (const ManifestNode r = tmpl["retryStrategy"]; r.present()) {
    out.retry = ReadRetryStrategy(r, log);
    out.retry_place = r.place();
  }
  if (tmpl["container"].present()) {
    ReadPod(tmpl, tmpl["container"], defaults, log, &out);
  } else if (tmpl["script"].present()) {
    ReadPod(tmpl, tmpl["script"], defaults, log, &out);  // its source runs in the container
  } else if (tmpl["dag"].present()) {
    ReadDag(tmpl["dag"], log, &out);
  } else if (tmpl["steps"].present()) {
    ReadSteps(tmpl["steps"], log, &out);
  } else {
    out.kind = ArgoTemplateKind::kOther;
    for (std::string_view kind : kOtherKinds) {
      if (tmpl[kind].present()) out.other_kind = std::string(kind);
    }
    if (log->ok() && out.other_kind.empty()) {
      tmpl.Fail(log,
                "a template needs one of container, script, dag, steps, suspend, "
                "resource, data, http, plugin and containerSet");
    }
  }
  return out;
}

// The workflow's defaults for its pods: spec.podMetadata.labels, nodeSelector, affinity,
// tolerations, podPriorityClassName, schedulerName.
PodTemplateModel ReadPodDefaults(const ManifestNode& spec, ManifestLog* log) {
  PodTemplateModel out;
  out.labels = spec["podMetadata"]["labels"].StringMap(log);
  out.spec.node_selector = spec["nodeSelector"].StringMap(log);
  if (const ManifestNode affinity = spec["affinity"]; affinity.present()) {
    ReadAffinity(affinity, log, &out.spec);
  }
  out.spec.tolerations = ReadTolerationList(spec["tolerations"], log);
  if (const ManifestNode p = spec["podPriorityClassName"]; p.present()) {
    out.spec.priority_class = p.String(log);
    out.spec.priority_place = p.place();
  }
  CheckSchedulerName(spec["schedulerName"], log);
  return out;
}

void ReadWorkflowFields(const ManifestNode& spec, ManifestLog* log, WorkflowObject* out) {
  const ManifestNode entry = spec["entrypoint"];
  out->entrypoint = entry.String(log);
  out->entrypoint_place = entry.present() ? entry.place() : spec.place();
  if (const ManifestNode ref = spec["workflowTemplateRef"]; ref.present()) {
    out->workflow_template_ref = ref["name"].String(log);
    if (ref["clusterScope"].Bool(log, false)) {
      out->workflow_template_ref = "cluster:" + out->workflow_template_ref;
    }
    out->ref_place = ref.place();
  }
  if (const ManifestNode p = spec["parallelism"]; p.present()) {
    out->parallelism = static_cast<int>(p.Int(log, 0, 1, kMaxPods));
  }
  if (const ManifestNode r = spec["retryStrategy"]; r.present()) {
    out->retry = ReadRetryStrategy(r, log);
    out->retry_place = r.place();
  }
  WarnAll(spec, log, kSpecWarnings);
}

}  // namespace

namespace {

// A CronWorkflow's schedule; its spec.workflowSpec is read as a Workflow's spec.
void ReadCronFields(const ManifestNode& spec, ManifestLog* log, WorkflowObject* out) {
  if (!spec.ExpectMap(log)) return;
  const ManifestNode schedule = spec["schedule"], schedules = spec["schedules"];
  const std::vector<ManifestNode> list = schedules.Elements(log);
  if (schedule.present() == schedules.present() || (schedules.present() && list.size() != 1)) {
    return spec.Fail(log, "give one schedule (schedule, or schedules with one element)");
  }
  const ManifestNode& given = schedule.present() ? schedule : list.front();
  out->schedule = given.String(log);
  out->schedule_place = given.place();
  if (log->ok() && out->schedule.empty()) given.Fail(log, "must not be empty");
  const ManifestNode policy = spec["concurrencyPolicy"];
  if (policy.Choice(log, "concurrencyPolicy", {"Allow", "Forbid", "Replace"}) != 0) {
    policy.Fail(log, "concurrencyPolicy Forbid and Replace are not modelled yet (use Allow)");
  }
  for (const char* field : {"timezone", "startingDeadlineSeconds", "suspend", "stopStrategy"}) {
    if (const ManifestNode f = spec[field]; f.present()) {
      f.Warn(log, "not modelled: every run starts on time, in UTC");
    }
  }
}

}  // namespace

WorkflowObject ReadWorkflowObject(const ManifestNode& doc, ManifestLog* log) {
  WorkflowObject out;
  const std::string kind = doc["kind"].String(log);
  out.runs = kind == "Workflow" || kind == "CronWorkflow";
  if (kind == "CronWorkflow") ReadCronFields(doc["spec"], log, &out);
  const ManifestNode spec = kind == "CronWorkflow" ? doc["spec"]["workflowSpec"] : doc["spec"];
  if (!spec.ExpectMap(log)) return out;
  ReadWorkflowFields(spec, log, &out);
  const PodTemplateModel defaults = ReadPodDefaults(spec, log);
  for (const ManifestNode& t : spec["templates"].Elements(log)) {
    if (!log->ok()) break;
    out.templates.push_back(ReadTemplate(t, defaults, log));
  }
  return out;
}

}  // namespace migsim::k8s
