#pragma once
// Internal to sim/io: a scenario's "policy" object.
//
//   "policy": {"name": "fgd"}
//   "policy": {"name": "mig-best-fit", "params": {"dynamic": true}}
//   "policy": {"name": "scored", "params": {"plugins": [{"name": "least-allocated",
//              "weight": 1}, {"name": "fgd", "weight": 2}]}}
//   "policy": {"library": "plugins/libmypolicy.so", "params": {...}}
//
// Parameters are checked against the policy's ParamSpecs (policies/registry.h): an
// unknown key, a wrong type or a value out of range is an error at its pointer; defaults
// fill in what is left out. A library's params are passed to it as JSON, unchecked here.

#include "sim/io/json_reader.h"
#include "sim/policy/policy_spec.h"

namespace migsim::io {

// The default when "policy" is absent: first-fit.
PolicySpec LoadPolicySpec(LoadContext* ctx, const JsonRef& ref);

}  // namespace migsim::io
