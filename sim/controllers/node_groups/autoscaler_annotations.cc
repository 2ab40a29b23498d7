#include "sim/controllers/node_groups/autoscaler_annotations.h"

namespace migsim {

std::optional<std::string> ApplyAutoscalerAnnotations(const Labels& annotations, PodTemplate* pod) {
  for (const auto& [key, value] : annotations) {
    const bool ours = key == kDoNotDisruptAnnotation || key == kSafeToEvictAnnotation;
    if (!ours) continue;
    if (value != "true" && value != "false") {
      return "annotation '" + key + "' is \"" + value + "\": give \"true\" or \"false\"";
    }
    if (key == kDoNotDisruptAnnotation) {
      pod->do_not_disrupt = value == "true";
    } else {
      pod->safe_to_evict = value == "true";
    }
  }
  return std::nullopt;
}

}  // namespace migsim
