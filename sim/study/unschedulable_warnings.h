#pragma once
// The warnings `migsim validate` and `migsim run` print for pods no node can hold
// (workloads/unschedulable.h): one line per template, naming its workloads and requests;
// and for gangs the cluster can never hold whole (workloads/gang_fit.h): one line per gang.

#include <string>
#include <vector>

#include "workloads/scenario.h"

namespace migsim {

// "pods of Job train asking cpu 200, nvidia.com/gpus 1 fit no node: they will stay pending",
// "the gang of DistributedJob train can never be scheduled: 3 workers x 8 nvidia.com/gpu =
// 24 nvidia.com/gpu, more than the cluster's 16: its pods will stay pending"
std::vector<std::string> UnschedulableWarnings(const Scenario& scenario);

}  // namespace migsim
