#include "workloads/pod_group.h"

#include <string>

namespace migsim {

void PodGroup::Start(ControllerContext& ctx, OwnerId self) {
  self_ = self;
  ctx.SetTimer(spec_.at, self_, 0);
}

void PodGroup::OnTimer(ControllerContext& ctx, uint64_t) {
  for (int i = 0; i < spec_.count; ++i) ctx.Submit(spec_.tmpl, self_, static_cast<uint32_t>(i));
}

std::string PodGroup::PodName(const Pod& pod) const {
  if (spec_.count == 1) return spec_.name;
  return spec_.name + "-" + std::to_string(pod.tag);
}

}  // namespace migsim
