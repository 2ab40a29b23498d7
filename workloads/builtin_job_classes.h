#pragma once
// Job classes calibrated from published measurements, usable by name from any scenario
// ("job_classes": {"bert": {"builtin": "bert-base-finetune"}}). Each says where its
// numbers come from.

#include <span>
#include <string>
#include <string_view>

#include "sim/engine/job_class.h"

namespace migsim {

struct BuiltinJobClass {
  JobClass job_class;  // its name is the built-in's name
  std::string source;  // where the numbers come from, and how they were derived
};

std::span<const BuiltinJobClass> BuiltinJobClasses();

// The built-in called `name`, or nullptr.
const BuiltinJobClass* FindBuiltinJobClass(std::string_view name);

}  // namespace migsim
