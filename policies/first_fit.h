#pragma once
#include "sim/policy/policy.h"

namespace migsim {

// The first node, in cluster order, that fits; the device plugin picks the devices. It
// overrides nothing: the API's defaults are first fit.
class FirstFitPolicy final : public Policy {
 public:
  std::string_view name() const override { return "first-fit"; }
};

}  // namespace migsim
