#pragma once
// Internal to sim/io/k8s: Argo Workflows (argoproj.io/v1alpha1) onto migsim's Workflow
// workload, a flat DAG of pod steps. Reading the objects (argo_templates.cc) and flattening
// a Workflow's templates, the nested ones and those of WorkflowTemplates it references, into
// steps (argo_workflow.cc). What is flattened how is in scenarios/README.md.

#include <map>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/k8s/manifest_node.h"
#include "sim/io/k8s/manifest_objects.h"

namespace migsim::k8s {

// Workflow, WorkflowTemplate and ClusterWorkflowTemplate (`doc` is the object's root).
WorkflowObject ReadWorkflowObject(const ManifestNode& doc, ManifestLog* log);
// A `retryStrategy`: `limit` (required: Argo retries for ever without one), `retryPolicy`.
RetryStrategy ReadRetryStrategy(const ManifestNode& node, ManifestLog* log);

// One step of the flattened workflow: a pod template of the manifests, run once per item.
struct FlatStep {
  std::string name;                       // the task's name; a nested task's "<outer task>.<task>"
  const PodTemplateModel* pod = nullptr;  // into the manifests the flattening was given
  std::vector<int> depends;               // indices into FlatWorkflow::steps
  std::vector<std::string> items;         // empty: one pod
  RetryStrategy retry;
};

struct FlatWorkflow {
  int parallelism = 0;  // 0: unlimited
  std::vector<FlatStep> steps;
  std::vector<std::string> params_used;  // the `params` entries a withParam took
};

// The steps of Workflow `workflow` (an object of `all`, which must outlive the result).
// `params`: the items of each withParam the manifest cannot resolve, by flattened step name;
// `params_where` names where they are given, for the error when one is missing. Errors are
// InvalidArgument at the manifest place of the problem.
Result<FlatWorkflow> FlattenWorkflow(const ManifestObject& workflow,
                                     const std::vector<ManifestObject>& all,
                                     const std::map<std::string, std::vector<std::string>>& params,
                                     const std::string& params_where);

}  // namespace migsim::k8s
