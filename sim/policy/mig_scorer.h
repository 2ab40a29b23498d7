#pragma once
// The scoring functions of the MIG edition of the packing study (policies/mig_scorers.h
// has the three built in): a score for placing a GI on a GPU; higher wins. Not a policy
// API: the MIG fill experiment calls them directly, and MigPlacementPolicy (policies/)
// makes the same measures scenario policies.

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "sim/policy/mig_share.h"

namespace migsim {

class MigScorer {
 public:
  virtual ~MigScorer() = default;
  virtual std::string_view name() const = 0;
  // `before` and `after` are the GPU without and with the candidate GI.
  virtual int64_t Score(const MigGpu& before, const MigGpu& after) = 0;
};

struct MigPolicyContext {
  const GpuModel* model = nullptr;
  bool dynamic = true;
  std::vector<MigLayout> layouts;         // EnumerateMaximalLayouts(*model, true)
  std::vector<TypicalProfile> typical;    // for mig-fgd
};

using MigScorerFactory = std::function<std::unique_ptr<MigScorer>(
    std::string_view name, const MigPolicyContext& context)>;

}  // namespace migsim
