#pragma once
// MIGSIM_CHECK: an invariant of the engine, checked in every build type. A broken
// invariant is a bug in migsim, not bad input (bad input is a Status, see status.h): it
// throws InternalError with the condition and place rather than corrupting the run. What
// catches it decides what the bug ends: the CLI exits 1 with the message
// (sim/cli/main.cc), the Python module raises migsim.InternalError, a fuzz target aborts
// (libFuzzer reports the input). A check broken where nothing may throw (a destructor, a
// noexcept function) ends in std::terminate, whose handler in the CLI prints the same
// message and exits 1.

#include <stdexcept>
#include <string>

namespace migsim {

// A broken invariant of migsim; what() is "<message> (<condition>) at <file>:<line>".
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// MIGSIM_CHECK's failure, out of line of the check so that the check stays cheap.
[[noreturn]] inline void FailCheck(const std::string& message, const char* condition,
                                   const char* file, int line) {
  throw InternalError(message + " (" + condition + ") at " + file + ":" + std::to_string(line));
}

}  // namespace migsim

#define MIGSIM_CHECK(cond, msg)                                        \
  do {                                                                 \
    if (!(cond)) ::migsim::FailCheck((msg), #cond, __FILE__, __LINE__); \
  } while (false)
