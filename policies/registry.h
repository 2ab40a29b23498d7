#pragma once
// Policy names -> factories. Adding a policy: write policies/<name>.cc with a Policy
// subclass and add one line to the table in registry.cc.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/policy.h"

namespace migsim {

// A new policy called `name`, or nullptr when there is none.
std::unique_ptr<Policy> MakePolicy(std::string_view name);

// The registered names, in a fixed order.
std::vector<std::string> PolicyNames();

}  // namespace migsim
