#pragma once
// Every built-in policy, by name, with its parameters: the one registry that scenario
// files, sweeps, plans and `migsim policies` read. Adding a policy: a Policy subclass in
// policies/<name>.{h,cc} and one entry in registry.cc.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/policy.h"
#include "sim/policy/policy_spec.h"

namespace migsim {

struct PolicyInfo {
  std::string_view name;
  std::string_view summary;  // one line for `migsim policies`
  std::vector<ParamSpec> params;
  bool scores = false;  // has a Score: usable as a plugin of "scored"
  std::unique_ptr<Policy> (*make)(const PolicySpec& spec);
};

// All built-in policies, in a fixed order.
std::span<const PolicyInfo> PolicyCatalog();
// The entry called `name`, or nullptr.
const PolicyInfo* FindPolicy(std::string_view name);
std::vector<std::string> PolicyNames();

// A new policy for `spec`. REQUIRES: spec.name is in the catalog and spec.params hold every
// declared parameter with its kind (the loader fills in defaults: see WithDefaults).
// nullptr for an unknown name; a library policy (spec.library) is loaded through the
// plugin ABI (plugin/plugin_policy.h), nullptr when it does not load.
std::unique_ptr<Policy> MakePolicy(const PolicySpec& spec);
// A new policy called `name` with default parameters, or nullptr.
std::unique_ptr<Policy> MakePolicy(std::string_view name);

// `spec` with every parameter it leaves out set to its default. REQUIRES: known name.
PolicySpec WithDefaults(PolicySpec spec);

// The parameter that seeds a policy's own random stream (`random`'s node choice). A run
// whose scenario does not give it seeds the stream from the run's seed, so that the
// run's seed decides every draw (SeedPolicyStream).
inline constexpr std::string_view kPolicySeedParam = "seed";

// Whether the policy `spec` names draws at random (declares kPolicySeedParam).
bool PolicyDrawsAtRandom(const PolicySpec& spec);

// Sets kPolicySeedParam of `spec` to `run_seed` when its policy declares it (the bits of
// the seed as they are: the stream takes all 64). REQUIRES: known name or a library.
void SeedPolicyStream(PolicySpec* spec, uint64_t run_seed);

}  // namespace migsim
