#include "sim/controllers/make_controllers.h"

#include <memory>

#include "sim/controllers/faults/fault_injector.h"
#include "sim/controllers/kueue/kueue_controller.h"
#include "sim/controllers/mig_manager/mig_manager.h"

namespace migsim {

ClusterControllers MakeClusterControllers(const ClusterSpec& cluster,
                                          const std::optional<KueueSpec>& kueue) {
  ClusterControllers controllers;
  // Always there: policies may ask for MIG layouts in any run.
  controllers.push_back(std::make_unique<MigManager>());
  if (kueue) controllers.push_back(std::make_unique<KueueController>(*kueue));
  // Only with faults: a run without them does no work for them (spot notices come from
  // fault processes, so node groups alone need none).
  if (!cluster.faults.empty() || !cluster.fault_processes.empty()) {
    controllers.push_back(std::make_unique<FaultInjector>());
  }
  return controllers;
}

}  // namespace migsim
