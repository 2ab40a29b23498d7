#pragma once
// The warnings `migsim validate` and `migsim run` print for pods no node can hold
// (workloads/unschedulable.h): one line per template, naming its workloads and requests.

#include <string>
#include <vector>

#include "workloads/scenario.h"

namespace migsim {

// "pods of Job train asking cpu 200, nvidia.com/gpus 1 fit no node: they will stay pending"
std::vector<std::string> UnschedulableWarnings(const Scenario& scenario);

}  // namespace migsim
