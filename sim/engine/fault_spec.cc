#include "sim/engine/fault_spec.h"

namespace migsim {

std::string_view FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kNodeLost:
      return "node-lost";
    case FaultKind::kGpuUnhealthy:
      return "gpu-unhealthy";
    case FaultKind::kSpotInterruption:
      return "spot-interruption";
    case FaultKind::kDrain:
      return "drain";
    case FaultKind::kMigReconfigureFailed:
      return "mig-reconfigure-failed";
  }
  return "?";
}

}  // namespace migsim
