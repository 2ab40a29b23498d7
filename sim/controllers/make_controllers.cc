#include "sim/controllers/make_controllers.h"

#include <memory>

#include "sim/controllers/mig_manager/mig_manager.h"

namespace migsim {

ClusterControllers MakeClusterControllers(const ClusterSpec& /*cluster*/) {
  ClusterControllers controllers;
  // Always there: policies may ask for MIG layouts in any run.
  controllers.push_back(std::make_unique<MigManager>());
  return controllers;
}

}  // namespace migsim
