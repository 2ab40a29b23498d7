#pragma once
#include <memory>

#include "sim/engine/controller.h"
#include "workloads/workload_spec.h"

namespace migsim {

// The controller that runs `spec`.
std::unique_ptr<Controller> MakeController(const WorkloadSpec& spec);

}  // namespace migsim
