#include "sim/engine/pod.h"

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/priority_class.h"

namespace migsim {

void CheckHandover(const Handover& from) {
  MIGSIM_CHECK(from.work >= 0 && from.work < 1,
               "a pod resumes from a fraction of its work in [0, 1)");
  MIGSIM_CHECK(from.attained_gpu_s >= 0, "a pod inherits a negative attained service");
}

Handover Pod::handover() const {
  return Handover{.work = std::min(checkpoint, 1 - 1e-9), .attained_gpu_s = attained_gpu_s};
}

std::string_view PhaseName(PodPhase phase) {
  switch (phase) {
    case PodPhase::kPending:
      return "pending";
    case PodPhase::kStarting:
      return "starting";
    case PodPhase::kRunning:
      return "running";
    case PodPhase::kSucceeded:
      return "completed";
    case PodPhase::kFailed:
      return "failed";
    case PodPhase::kDeleted:
      return "deleted";
  }
  return "?";
}

std::string_view EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kNone:
      return "";
    case EndReason::kCompleted:
      return "Completed";
    case EndReason::kError:
      return "Error";
    case EndReason::kAdmissionError:
      return "UnexpectedAdmissionError";
    case EndReason::kDeviceLost:
      return "DeviceLost";
    case EndReason::kNoRunTime:
      return "NoRunTime";
    case EndReason::kOomKilled:
      return "OOMKilled";
    case EndReason::kDeleted:
      return "Deleted";
    case EndReason::kPreempted:
      return "Preempted";
    case EndReason::kNodeLost:
      return "NodeLost";
    case EndReason::kGpuFailed:
      return "GpuFailed";
    case EndReason::kEvicted:
      return "Evicted";
    case EndReason::kNodeRemoved:
      return "NodeRemoved";
  }
  return "?";
}

std::string_view PreemptionPolicyName(PreemptionPolicy policy) {
  return policy == PreemptionPolicy::kNever ? "Never" : "PreemptLowerPriority";
}

}  // namespace migsim
