#pragma once
// Pod templates that no node of a scenario can ever hold, found before a run: a request
// for a resource no node offers (a typo such as nvidia.com/gpus), more CPU than any node
// has, or a selector no node matches. Such pods would only show up as "pending" at the
// end; `migsim validate` and `migsim run` warn about them instead.

#include <vector>

#include "sim/core/ids.h"
#include "workloads/scenario.h"

namespace migsim {

// The templates (ids into scenario.templates, in order) that fit no node alone, empty and
// as the node starts. No false alarms: nodes with a MIG reconfiguration may offer other
// resources later, so while there is one (or a policy that may repartition GPUs: param
// "dynamic" true, or a library policy) no template is reported; nor is a template that
// selects nodes by kubernetes.io/hostname.
std::vector<TemplateId> TemplatesNoNodeHolds(const Scenario& scenario);

}  // namespace migsim
