#include "tests/support/run_migsim.h"

#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>

namespace migsim::test {

// coreutils' timeout exits 124 when the time limit ended the command; -k kills it if it
// ignores the TERM.
std::string CommandOutput(const std::string& command, int* exit_code) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) output.append(buf.data(), n);
  const int status = pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

Outcome RunMigsim(const std::string& args, int timeout_s) {
  const std::string command = "timeout -k 5 " + std::to_string(timeout_s) + " " +
                              std::string(MIGSIM_BINARY) + " " + args + " 2>&1";
  Outcome out;
  out.output = CommandOutput(command, &out.exit_code);
  out.timed_out = out.exit_code == 124 || out.exit_code == 137;
  if (out.timed_out) out.exit_code = -1;
  return out;
}

}  // namespace migsim::test
