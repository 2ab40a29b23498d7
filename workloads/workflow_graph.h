#pragma once
// The DAG of a workflow's steps. Boost.Graph holds it, inside the .cc only.

#include <memory>
#include <vector>

#include "sim/core/status.h"
#include "workloads/workload_spec.h"

namespace migsim {

// A workflow's steps as a directed graph, an edge running from a step to each step that
// depends on it.
class WorkflowGraph {
 public:
  explicit WorkflowGraph(const WorkflowSpec& workflow);
  ~WorkflowGraph();
  WorkflowGraph(const WorkflowGraph&) = delete;
  WorkflowGraph& operator=(const WorkflowGraph&) = delete;

  // Ok when the graph is a DAG; otherwise InvalidArgument naming a cycle, e.g.
  // "steps form a cycle: a -> b -> a" or "step 'a' depends on itself".
  Status Validate() const;
  // The steps that depend directly on `step`, in step order.
  std::vector<int> Dependents(int step) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// WorkflowGraph(workflow).Validate().
Status ValidateWorkflowGraph(const WorkflowSpec& workflow);

}  // namespace migsim
