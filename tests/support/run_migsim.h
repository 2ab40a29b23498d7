#pragma once
// Running the migsim executable from a test, bounded in time: a run that hangs is killed
// and reported as timed out, a failure, instead of blocking the test suite.

#include <string>

namespace migsim::test {

struct Outcome {
  int exit_code = -1;      // -1 when migsim did not exit normally
  bool timed_out = false;  // killed after the time limit
  std::string output;      // stdout and stderr together
};

// Runs `migsim <args>` through the shell (quote `args` as for sh) with at most
// `timeout_s` seconds of wall time.
Outcome RunMigsim(const std::string& args, int timeout_s = 600);

// What `command` (run through the shell) prints on stdout, and its exit code in `*exit_code`
// (-1 when it did not exit normally).
std::string CommandOutput(const std::string& command, int* exit_code);

}  // namespace migsim::test
