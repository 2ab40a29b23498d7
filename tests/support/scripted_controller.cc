#include "tests/support/scripted_controller.h"

namespace migsim::test {

void ScriptedController::Start(ControllerContext& ctx, OwnerId self) {
  self_ = self;
  for (size_t i = 0; i < actions_.size(); ++i) ctx.SetTimer(actions_[i].at, self_, i);
}

void ScriptedController::OnTimer(ControllerContext& ctx, uint64_t tag) {
  const Action& a = actions_[tag];
  if (a.kind == Action::kSubmit) {
    submitted.push_back(ctx.Submit(a.tmpl, self_, static_cast<uint32_t>(submitted.size())));
  } else {
    ctx.Delete(submitted.at(a.nth));
  }
}

void ScriptedController::OnPodEnded(ControllerContext&, const Pod& pod) {
  ended.emplace_back(pod.id, pod.phase);
}

std::string ScriptedController::PodName(const Pod& pod) const {
  return "scripted-" + std::to_string(pod.tag);
}

}  // namespace migsim::test
