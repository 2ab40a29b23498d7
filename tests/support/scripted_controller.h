#pragma once
// A fake Controller that submits and deletes pods at scripted times and records the pod
// ends the engine reports to it, for engine tests that need exact control over pods.

#include <string>
#include <vector>

#include "sim/engine/controller.h"

namespace migsim::test {

class ScriptedController final : public Controller {
 public:
  struct Action {
    SimTime at;
    enum Kind { kSubmit, kDelete } kind = kSubmit;
    TemplateId tmpl;   // kSubmit: the template of the new pod
    uint32_t nth = 0;  // kDelete: the nth pod this controller submitted (from 0)
  };
  static Action SubmitAt(SimTime at, TemplateId tmpl) { return {at, Action::kSubmit, tmpl, 0}; }
  static Action DeleteAt(SimTime at, uint32_t nth) { return {at, Action::kDelete, {}, nth}; }

  explicit ScriptedController(std::vector<Action> actions) : actions_(std::move(actions)) {}

  std::string name() const override { return "Scripted/fake"; }
  void Start(ControllerContext& ctx, OwnerId self) override;
  void OnTimer(ControllerContext& ctx, uint64_t tag) override;
  void OnPodEnded(ControllerContext& ctx, const Pod& pod) override;
  std::string PodName(const Pod& pod) const override;

  // The pods OnPodEnded reported, in order, and the phase each had then.
  std::vector<std::pair<PodId, PodPhase>> ended;
  // The pods this controller submitted, in order.
  std::vector<PodId> submitted;

 private:
  std::vector<Action> actions_;
  OwnerId self_;
};

}  // namespace migsim::test
