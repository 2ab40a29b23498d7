#pragma once
// The scenario the plan fuzz target's plans read: scenarios/capacity-inference-mix.json,
// compiled in at build time (plan_scenario.cc.in) so that the target reads no file.

namespace migsim::fuzz {

extern const char* const kPlanScenario;

}  // namespace migsim::fuzz
