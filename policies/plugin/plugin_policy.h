#pragma once
// A policy loaded from a shared library through migsim_policy_plugin.h's C ABI. The
// library is opened when the policy is made and closed with it; each PluginPolicy holds
// one instance of the plugin's policy.

#include <memory>
#include <string>

#include "sim/core/status.h"
#include "sim/policy/policy.h"

namespace migsim {

// Opens `path`, checks the ABI version and the five symbols, and creates an instance with
// `params_json`. InvalidArgument, with a message naming what is wrong, when the file is
// missing or not a loadable library, built for another ABI version or lacks a symbol;
// ParseError, with the plugin's own message, when the plugin refuses the params.
Result<std::unique_ptr<Policy>> LoadPluginPolicy(const std::string& path,
                                                 const std::string& params_json);

}  // namespace migsim
