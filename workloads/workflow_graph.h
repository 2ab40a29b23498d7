#pragma once
// The DAG of a workflow's steps. Boost.Graph holds it, inside the .cc only.

#include <vector>

#include "sim/core/status.h"
#include "workloads/workload_spec.h"

namespace migsim {

// Ok when the steps' `depends` form a DAG; otherwise InvalidArgument naming a cycle,
// e.g. "steps form a cycle: a -> b -> a".
Status ValidateWorkflowGraph(const WorkflowSpec& workflow);

}  // namespace migsim
