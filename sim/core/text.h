#pragma once
// Text helpers for messages.

#include <string>
#include <vector>

namespace migsim {

// "a, b, c": the form every "(valid: ...)" list in an error message takes.
inline std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace migsim
