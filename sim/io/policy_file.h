#pragma once
// A policy object on its own, in the form of a scenario's "policy" (policy_json.h):
//   {"name": "fgd"}
//   {"name": "scored", "params": {"plugins": [{"name": "fgd", "weight": 2}, ...]}}
//   {"library": "build/libmypolicy.so", "params": {...}}
// read and checked by the scenario's own loader, so that `migsim openb --policy-file` and
// the Python module's openb take exactly what a scenario takes.

#include <string>
#include <string_view>

#include "sim/core/status.h"
#include "sim/policy/policy_spec.h"

namespace migsim {

// A policy as read, and whether its params give its own random seed (kPolicySeedParam):
// one that does not draws from each run's seed, as in a scenario (SeedPolicyStream).
struct LoadedPolicy {
  PolicySpec spec;
  bool seeds_itself = false;
};

// The policy of the JSON file at `path`; a library path is relative to the file's
// directory. Errors name the file and the JSON pointer ("p.json:/params/plugins/0/name:
// unknown score plugin 'x' (valid: ...)"); a library is loaded once to check it.
Result<LoadedPolicy> LoadPolicyFile(const std::string& path);

// The same from JSON text (Python's dict form); `label` names it in errors, and a library
// path is relative to the current directory.
Result<LoadedPolicy> LoadPolicyText(std::string_view json, const std::string& label);

}  // namespace migsim
