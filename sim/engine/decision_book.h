#pragma once
// The policy's answers the engine saw (placements and MIG repartitions it asked for), those
// it refused as invalid, and why it refused the first: what a run reports of its policy
// (Engine::policy_decisions() and the two after it).

#include <cstdint>
#include <string>
#include <utility>

namespace migsim {

class DecisionBook {
 public:
  // Counts one decision, refused unless `valid`. `why()` says why it was refused; it is
  // called for the first refusal only, since building a reason costs a string.
  template <class Why>
  void Count(bool valid, Why&& why) {
    ++made_;
    if (!valid && rejected_++ == 0) first_rejection_ = std::forward<Why>(why)();
  }
  int64_t made() const { return made_; }
  int64_t rejected() const { return rejected_; }
  // "" when none was refused.
  const std::string& first_rejection() const { return first_rejection_; }

 private:
  int64_t made_ = 0;
  int64_t rejected_ = 0;
  std::string first_rejection_;
};

}  // namespace migsim
