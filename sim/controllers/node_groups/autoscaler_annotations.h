#pragma once
// The pod annotations by which a workload opts out of the node autoscalers' voluntary
// disruption (README "Autoscaling"):
//   karpenter.sh/do-not-disrupt: "true"                     Karpenter does not consolidate
//                                                           the pod's node;
//   cluster-autoscaler.kubernetes.io/safe-to-evict: "false" the Cluster Autoscaler does not
//                                                           scale the pod's node down.
// Other annotations mean nothing to the simulation and are left alone, as the API server
// keeps annotations nobody reads.

#include <optional>
#include <string>

#include "sim/engine/pod.h"

namespace migsim {

inline constexpr const char* kDoNotDisruptAnnotation = "karpenter.sh/do-not-disrupt";
inline constexpr const char* kSafeToEvictAnnotation =
    "cluster-autoscaler.kubernetes.io/safe-to-evict";

// Sets `pod`'s do_not_disrupt and safe_to_evict from `annotations` (sorted by key). An
// error message when one of the two has a value other than "true" or "false".
std::optional<std::string> ApplyAutoscalerAnnotations(const Labels& annotations, PodTemplate* pod);

}  // namespace migsim
