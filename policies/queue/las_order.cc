#include "policies/queue/las_order.h"

#include <algorithm>
#include <cmath>

namespace migsim {

int32_t LasOrder::Level(double attained_gpu_s) const {
  const auto above = std::upper_bound(thresholds_.begin(), thresholds_.end(), attained_gpu_s);
  return static_cast<int32_t>(above - thresholds_.begin());
}

bool LasOrder::Less(const PodView& a, const PodView& b) const {
  const int32_t la = Level(a.attained_gpu_s), lb = Level(b.attained_gpu_s);
  if (promote_after_) {
    const SimTime ea = a.created + SimTime::Micros(promote_after_->micros() * la);
    const SimTime eb = b.created + SimTime::Micros(promote_after_->micros() * lb);
    if (ea != eb) return ea < eb;
  } else if (la != lb) {
    return la < lb;
  }
  if (a.created != b.created) return a.created < b.created;
  return a.id < b.id;
}

// A bound pod is never promoted; a pending one has moved up one queue per promote_after
// waited since it was created.
int32_t LasOrder::Rank(const PodView& pod, SimTime now) const {
  int32_t level = Level(pod.attained_gpu_s);
  if (pod.gpus == 0 && promote_after_ && promote_after_->micros() > 0) {
    const int64_t waited = (now - pod.created).micros() / promote_after_->micros();
    level = static_cast<int32_t>(std::max<int64_t>(0, level - waited));
  }
  return -level;
}

std::optional<SimTime> LasOrder::NextRankChange(const PodView& pod, SimTime now) const {
  const int32_t level = -Rank(pod, now);
  if (pod.gpus > 0) {  // running: demoted when its service reaches the next threshold
    if (static_cast<size_t>(level) >= thresholds_.size()) return std::nullopt;
    const double to_go_s =
        (thresholds_[static_cast<size_t>(level)] - pod.attained_gpu_s) / pod.gpus;
    return now + SimTime::Micros(static_cast<int64_t>(std::ceil(std::max(0.0, to_go_s) * 1e6)));
  }
  if (level == 0 || !promote_after_) return std::nullopt;
  const int64_t step = promote_after_->micros();
  const int64_t waited = (now - pod.created).micros() / step;
  return pod.created + SimTime::Micros(step * (waited + 1));
}

}  // namespace migsim
