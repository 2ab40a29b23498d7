#pragma once
// A fake Policy that gives answers prepared in advance, for tests of how the engine
// treats a policy's answers (including wrong ones), and that records what it was asked.

#include <optional>
#include <vector>

#include "sim/policy/policy.h"

namespace migsim::test {

class ScriptedPolicy final : public Policy {
 public:
  // Answers the first calls with `script`, in order; later calls with `then`'s answer, or
  // nullopt when `then` is null. `then` must outlive the policy.
  explicit ScriptedPolicy(std::vector<std::optional<Placement>> script = {}, Policy* then = nullptr)
      : script_(std::move(script)), then_(then) {}

  std::string_view name() const override { return "scripted"; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;

  struct Call {
    SimTime at;
    PodId pod;
    bool operator==(const Call&) const = default;
  };
  // Every call, in order.
  const std::vector<Call>& calls() const { return calls_; }

 private:
  std::vector<std::optional<Placement>> script_;
  Policy* then_;
  std::vector<Call> calls_;
};

}  // namespace migsim::test
