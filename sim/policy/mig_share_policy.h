#pragma once
// The interface of the MIG edition's placement policies (policies/mig_share_policies.h
// has the three built in): a score for placing a GI on a GPU; higher wins.

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "sim/policy/mig_share.h"

namespace migsim {

class MigSharePolicy {
 public:
  virtual ~MigSharePolicy() = default;
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

using MigSharePolicyFactory = std::function<std::unique_ptr<MigSharePolicy>(
    std::string_view name, const MigPolicyContext& context)>;

}  // namespace migsim
