#pragma once
// The policies of an openb campaign (openb_campaign.h): the six study scorers run exactly,
// or any policy a scenario can name, made afresh for each run; and how a name or a seed
// list given by the user becomes them (`migsim openb` and the Python module share this).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/policy/policy.h"
#include "sim/policy/policy_spec.h"

namespace migsim {

// A policy of the campaign: one of the six study scorers, run exactly by the fill's own
// loop (RunFill), or any Policy, offered the pods through the engine-shaped view
// (RunPolicyFill) with the same seeds, submissions and ranks.
struct FillPolicy {
  std::string label;  // sc_policy in results; unique within a campaign
  // Makes one run's policy (each run its own instance: policies keep state) from the
  // run's seed; empty for the exact path, whose label is a GpuShareScorerNames() entry.
  // Called on the worker threads: with threads > 1 it, and what it makes, must be safe
  // to use from several threads at once, one instance per thread.
  std::function<std::unique_ptr<Policy>(uint64_t seed)> make{};
  // Its runs go on the calling thread, one at a time, after the others: a plugin library
  // (the plugin ABI promises its calls come from one thread) or a Python object (it needs
  // the interpreter's lock).
  bool one_thread = false;
};

// Any policy a scenario can name, from its checked spec (MakePolicy): a fresh instance
// per run. One that draws at random and does not seed itself (`seeds_itself`) draws from
// the run's seed, as in a scenario. A library's runs are one_thread.
FillPolicy SpecFillPolicy(const PolicySpec& spec, bool seeds_itself);

// The exact path for each name. REQUIRES: GpuShareScorerNames() entries.
std::vector<FillPolicy> ExactFillPolicies(const std::vector<std::string>& names);

// The labels of `policies`, in order.
std::vector<std::string> FillPolicyLabels(const std::vector<FillPolicy>& policies);

// A policy by name, `what` naming where it was given in errors ("--policy"): one of the
// six study scorers (run exactly), else a built-in policy with its default parameters
// (InvalidArgument for an unknown name or one whose parameters are required).
Result<FillPolicy> NamedFillPolicy(const std::string& name, const std::string& what);

// InvalidArgument when two policies share a label; `origins[i]` says where policy i was
// given ("--policy", "--policy-file p.json").
Status CheckUniqueLabels(const std::vector<FillPolicy>& policies,
                         const std::vector<std::string>& origins);

// "42-51", "1,2,3" or both ("1-3,7"): items separated by commas, each a decimal seed or an
// inclusive range lo-hi with lo <= hi. No seed twice, at most 10,000. In the given order.
// Errors start with `what` ("--seeds").
Result<std::vector<uint64_t>> ParseSeedList(const std::string& text, const std::string& what);

}  // namespace migsim
