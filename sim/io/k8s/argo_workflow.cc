// Flattening an Argo Workflow into migsim's step DAG. A DAG template's tasks keep their
// dependencies; a steps template's groups run in sequence, each step of a group depending on
// every step of the group before; a task whose template is itself a DAG or steps template is
// expanded in place, its tasks named "<task>.<inner task>", its first tasks depending on what
// the task depends on and the tasks depending on it on its last ones (the tasks nothing inside
// depends on: they succeed only after all the others did).

#include "sim/io/k8s/argo_workflow.h"

#include <algorithm>
#include <set>

#include "sim/io/json_reader.h"
#include "sim/io/k8s/workload_objects.h"

namespace migsim::k8s {
namespace {

using Params = std::map<std::string, std::vector<std::string>>;

// The WorkflowTemplate (or ClusterWorkflowTemplate, "cluster:<name>") named `ref`, or null.
const ManifestObject* FindWorkflowTemplate(const std::vector<ManifestObject>& all,
                                           const std::string& ref, const std::string& ns) {
  const bool cluster = ref.starts_with("cluster:");
  const std::string name = cluster ? ref.substr(8) : ref;
  for (const ManifestObject& o : all) {
    const bool kind = o.kind == (cluster ? "ClusterWorkflowTemplate" : "WorkflowTemplate");
    if (kind && o.name == name && (cluster || o.ns == ns)) return &o;
  }
  return nullptr;
}

void Union(std::vector<int>* into, const std::vector<int>& more) {
  for (int s : more) {
    if (std::find(into->begin(), into->end(), s) == into->end()) into->push_back(s);
  }
}

class Flattener {
 public:
  Flattener(const ManifestObject& workflow, const std::vector<ManifestObject>& all,
            const Params& params, const std::string& params_where)
      : workflow_(workflow), all_(all), params_(params), params_where_(params_where) {}

  Result<FlatWorkflow> Run(const WorkflowObject& w);

 private:
  // A template and the object whose templates its tasks name.
  struct Found {
    const ArgoTemplate* tmpl = nullptr;
    const WorkflowObject* owner = nullptr;
  };
  Found Find(const WorkflowObject* owner, const std::string& name, const std::string& ref,
             const ManifestPlace& where);
  std::vector<int> Expand(Found t, const std::string& prefix, const std::vector<int>& incoming);
  std::vector<int> ExpandDag(Found t, const std::string& prefix, const std::vector<int>& incoming);
  std::vector<int> ExpandSteps(Found t, const std::string& prefix,
                               const std::vector<int>& incoming);
  std::vector<int> AddTask(const WorkflowObject* owner, const ArgoTask& task,
                           const std::string& prefix, const std::vector<int>& incoming);
  std::vector<int> AddPod(const ArgoTemplate& t, const ArgoTask* task, const std::string& name,
                          const std::vector<int>& incoming);
  void CheckNested(const ArgoTask& task, const ArgoTemplate& t);

  const ManifestObject& workflow_;
  const std::vector<ManifestObject>& all_;
  const Params& params_;
  const std::string& params_where_;
  const WorkflowObject* base_ = nullptr;  // the workflowTemplateRef's object, or null
  std::optional<RetryStrategy> default_retry_;
  std::vector<const ArgoTemplate*> active_;  // the templates being expanded, for recursion
  ManifestLog log_;
  FlatWorkflow out_;
};

Flattener::Found Flattener::Find(const WorkflowObject* owner, const std::string& name,
                                 const std::string& ref, const ManifestPlace& where) {
  std::vector<const WorkflowObject*> scopes = {owner};
  if (!ref.empty()) {
    const ManifestObject* o = FindWorkflowTemplate(all_, ref, workflow_.ns);
    if (o == nullptr) {
      log_.Fail(where, "no " + std::string(ref.starts_with("cluster:") ? "Cluster" : "") +
                           "WorkflowTemplate named '" + ref.substr(ref.find(':') + 1) +
                           "' in the manifests");
      return {};
    }
    scopes = {&std::get<WorkflowObject>(o->body)};
  } else if (owner == &std::get<WorkflowObject>(workflow_.body) && base_ != nullptr) {
    scopes.push_back(base_);  // the Workflow's own templates first, then the referenced ones
  }
  std::vector<std::string> names;
  for (const WorkflowObject* scope : scopes) {
    for (const ArgoTemplate& t : scope->templates) {
      if (t.name == name) return {&t, scope};
      names.push_back(t.name);
    }
  }
  log_.Fail(where, io::UnknownNameMessage("template", name, names));
  return {};
}

std::vector<int> Flattener::AddPod(const ArgoTemplate& t, const ArgoTask* task,
                                   const std::string& name, const std::vector<int>& incoming) {
  FlatStep step{.name = name, .pod = &t.pod, .depends = incoming, .items = {}, .retry = {}};
  step.retry = t.retry.value_or(default_retry_.value_or(RetryStrategy{}));
  if (task != nullptr && task->items) step.items = *task->items;
  if (task != nullptr && task->with_param) {
    const auto it = params_.find(name);
    if (it == params_.end()) {
      log_.Fail(task->fan_out_place, "withParam '" + *task->with_param +
                                         "' is known only when the workflow runs: give its "
                                         "items in " +
                                         params_where_ + "." + name + " (a count or a list)");
      return {};
    }
    step.items = it->second;
    out_.params_used.push_back(name);
  }
  const bool taken = std::any_of(out_.steps.begin(), out_.steps.end(),
                                 [&](const FlatStep& s) { return s.name == name; });
  if (taken) {
    log_.Fail(task != nullptr ? task->place : t.place,
              "a second step named '" + name + "' (names must be unique in the workflow)");
    return {};
  }
  if (out_.steps.size() >= static_cast<size_t>(kMaxPods)) {
    log_.Fail(t.place, "more than " + std::to_string(kMaxPods) + " steps");
    return {};
  }
  out_.steps.push_back(std::move(step));
  return {static_cast<int>(out_.steps.size() - 1)};
}

// What migsim cannot do with a nested DAG or steps template.
void Flattener::CheckNested(const ArgoTask& task, const ArgoTemplate& t) {
  if (task.items || task.with_param) {
    log_.Fail(task.fan_out_place,
              "a fan-out over a dag or steps template ('" + t.name + "') is not modelled");
  } else if (t.retry && t.retry->limit > 0) {
    log_.Fail(t.retry_place, "retrying a whole dag or steps template is not modelled");
  } else if (t.parallelism > 0) {
    log_.Fail(t.parallelism_place,
              "template-level parallelism is modelled on the entrypoint only, not on a nested "
              "dag or steps template");
  }
}

std::vector<int> Flattener::AddTask(const WorkflowObject* owner, const ArgoTask& task,
                                    const std::string& prefix, const std::vector<int>& incoming) {
  const Found t = Find(owner, task.template_name, task.template_ref, task.template_place);
  if (!log_.ok()) return {};
  const std::string name = prefix + task.name;
  switch (t.tmpl->kind) {
    case ArgoTemplateKind::kPod:
      return AddPod(*t.tmpl, &task, name, incoming);
    case ArgoTemplateKind::kOther:
      log_.Fail(task.template_place, "template '" + t.tmpl->name + "' is a " + t.tmpl->other_kind +
                                         " template, which migsim does not model");
      return {};
    default:
      CheckNested(task, *t.tmpl);
      if (!log_.ok()) return {};
      return Expand(t, name + ".", incoming);
  }
}

std::vector<int> Flattener::Expand(Found t, const std::string& prefix,
                                   const std::vector<int>& incoming) {
  if (std::find(active_.begin(), active_.end(), t.tmpl) != active_.end()) {
    log_.Fail(t.tmpl->place, "template '" + t.tmpl->name +
                                 "' uses itself: recursion ends on a `when` condition, which "
                                 "migsim does not evaluate");
    return {};
  }
  active_.push_back(t.tmpl);
  std::vector<int> exits = t.tmpl->kind == ArgoTemplateKind::kDag
                               ? ExpandDag(t, prefix, incoming)
                               : ExpandSteps(t, prefix, incoming);
  active_.pop_back();
  return exits;
}

// Each task's dependencies as positions in `tasks`; empty after reporting a problem.
std::vector<std::vector<size_t>> DagDependencies(const std::vector<ArgoTask>& tasks,
                                                 ManifestLog* log) {
  std::vector<std::string> names;
  for (const ArgoTask& task : tasks) {
    if (std::find(names.begin(), names.end(), task.name) != names.end()) {
      log->Fail(task.place, "a second task named '" + task.name + "'");
      return {};
    }
    names.push_back(task.name);
  }
  std::vector<std::vector<size_t>> deps(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    for (const std::string& d : tasks[i].depends) {
      const auto it = std::find(names.begin(), names.end(), d);
      if (it == names.end()) {
        log->Fail(tasks[i].depends_place, io::UnknownNameMessage("task", d, names));
        return {};
      }
      deps[i].push_back(static_cast<size_t>(it - names.begin()));
    }
  }
  return deps;
}

// Tasks in dependency order (stable by position): a task is added once the tasks it depends
// on are, so a step's dependencies always precede it; a cycle leaves tasks unplaced.
std::vector<int> Flattener::ExpandDag(Found t, const std::string& prefix,
                                      const std::vector<int>& incoming) {
  const std::vector<ArgoTask>& tasks = t.tmpl->tasks;
  const std::vector<std::vector<size_t>> deps = DagDependencies(tasks, &log_);
  if (!log_.ok()) return {};
  std::vector<bool> depended(tasks.size(), false);
  for (const std::vector<size_t>& d : deps) {
    for (size_t on : d) depended[on] = true;
  }
  std::vector<std::optional<std::vector<int>>> exits(tasks.size());
  size_t placed = 0;
  for (bool progress = true; progress && placed < tasks.size() && log_.ok();) {
    progress = false;
    for (size_t i = 0; i < tasks.size() && log_.ok(); ++i) {
      const bool ready = std::all_of(deps[i].begin(), deps[i].end(),
                                     [&](size_t d) { return exits[d].has_value(); });
      if (exits[i] || !ready) continue;
      std::vector<int> in = deps[i].empty() ? incoming : std::vector<int>{};
      for (size_t d : deps[i]) Union(&in, *exits[d]);
      exits[i] = AddTask(t.owner, tasks[i], prefix, in);
      ++placed;
      progress = true;
    }
  }
  std::vector<int> out;
  for (size_t i = 0; i < tasks.size() && log_.ok(); ++i) {
    if (!exits[i]) {
      log_.Fail(tasks[i].depends_place, "tasks form a cycle through '" + tasks[i].name + "'");
    } else if (!depended[i]) {
      Union(&out, *exits[i]);
    }
  }
  return out;
}

std::vector<int> Flattener::ExpandSteps(Found t, const std::string& prefix,
                                        const std::vector<int>& incoming) {
  std::vector<int> before = incoming;
  std::set<std::string> seen;
  for (const std::vector<ArgoTask>& group : t.tmpl->groups) {
    std::vector<int> exits;
    for (const ArgoTask& step : group) {
      if (!seen.insert(step.name).second) {
        log_.Fail(step.place, "a second step named '" + step.name + "'");
        return {};
      }
      Union(&exits, AddTask(t.owner, step, prefix, before));
      if (!log_.ok()) return {};
    }
    before = std::move(exits);
  }
  return before;
}

Result<FlatWorkflow> Flattener::Run(const WorkflowObject& w) {
  if (!w.workflow_template_ref.empty()) {
    const ManifestObject* o = FindWorkflowTemplate(all_, w.workflow_template_ref, workflow_.ns);
    if (o == nullptr) {
      return ErrorAt(w.ref_place, "no WorkflowTemplate named '" + w.workflow_template_ref +
                                      "' in the manifests");
    }
    base_ = &std::get<WorkflowObject>(o->body);
  }
  const bool own_entry = !w.entrypoint.empty() || base_ == nullptr;
  const std::string& entry = own_entry ? w.entrypoint : base_->entrypoint;
  if (entry.empty()) return ErrorAt(w.entrypoint_place, "missing required field 'entrypoint'");
  out_.parallelism = w.parallelism.value_or(base_ != nullptr ? base_->parallelism.value_or(0) : 0);
  default_retry_ = w.retry ? w.retry : base_ != nullptr ? base_->retry : std::nullopt;
  const Found t = Find(&w, entry, "", own_entry ? w.entrypoint_place : base_->entrypoint_place);
  if (!log_.ok()) return log_.status();
  if (t.tmpl->parallelism > 0) {
    out_.parallelism = out_.parallelism == 0 ? t.tmpl->parallelism
                                             : std::min(out_.parallelism, t.tmpl->parallelism);
  }
  if (t.tmpl->kind == ArgoTemplateKind::kPod) {
    AddPod(*t.tmpl, nullptr, entry, {});
  } else if (t.tmpl->kind == ArgoTemplateKind::kOther) {
    log_.Fail(t.tmpl->place, "the entrypoint is a " + t.tmpl->other_kind +
                                 " template, which migsim does not model");
  } else {
    Expand(t, "", {});
  }
  if (!log_.ok()) return log_.status();
  return std::move(out_);
}

}  // namespace

Result<FlatWorkflow> FlattenWorkflow(const ManifestObject& workflow,
                                     const std::vector<ManifestObject>& all, const Params& params,
                                     const std::string& params_where) {
  Flattener flattener(workflow, all, params, params_where);
  return flattener.Run(std::get<WorkflowObject>(workflow.body));
}

}  // namespace migsim::k8s
