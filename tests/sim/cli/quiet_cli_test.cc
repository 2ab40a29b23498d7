// -q, --quiet on the commands that run simulations (run, sweep, plan, openb) means what
// `migsim run --help` says: no progress on stderr. Progress only ever shows on a terminal,
// so these tests give migsim a pseudo-terminal as stderr; the results on stdout are the same
// with or without --quiet.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

struct TerminalRun {
  int exit_code = -1;
  std::string out;  // stdout, a file
  std::string err;  // what migsim wrote on its terminal stderr
};

std::string Source(const std::string& path) { return std::string(MIGSIM_SOURCE_DIR) + "/" + path; }

// `migsim <args>` with a pseudo-terminal as its stderr and a file as its stdout.
TerminalRun OnTerminal(const std::string& args) {
  test::ScratchDir dir("quiet");
  const std::string out_path = dir.Path("stdout");
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(master >= 0);
  REQUIRE(grantpt(master) == 0);
  REQUIRE(unlockpt(master) == 0);
  // Opened before the fork, so that reading the master never sees a terminal without a side.
  const int terminal = open(ptsname(master), O_RDWR | O_NOCTTY);
  REQUIRE(terminal >= 0);
  const std::string command = "exec timeout -k 5 600 " + std::string(MIGSIM_BINARY) + " " + args;
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(terminal, STDERR_FILENO) < 0) _exit(127);
    close(master);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(terminal);
  TerminalRun run;
  char buf[4096];
  for (;;) {  // until every side of the terminal is closed (EIO)
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) {
      run.err.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  close(master);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(out_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  run.out = text.str();
  return run;
}

// Without the line of timings that `openb` prints among its results.
std::string WithoutTimings(const std::string& text) {
  std::istringstream in(text);
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    if (line.find(" runs in ") == std::string::npos) kept += line + "\n";
  }
  return kept;
}

}  // namespace

TEST_CASE("migsim run sweep plan and openb with --quiet leave a terminal stderr silent and print "
          "the same results",
          "[cli][quiet]") {
  const std::string openb = "openb --data " + Source("tests/golden/openb-small") +
                            " --trace small --policy all --seeds 1-2";
  for (const std::string& args :
       {"run " + Source("scenarios/56-superres.json"),
        "sweep " + Source("scenarios/sweeps/superres-nodes.json") + " --jobs 1",
        "plan " + Source("scenarios/plans/capacity-inference-mix.plan.json") + " --jobs 1",
        openb + " --jobs 1"}) {
    INFO(args);
    const TerminalRun loud = OnTerminal(args);
    const TerminalRun quiet = OnTerminal(args + " --quiet");
    const TerminalRun q = OnTerminal(args + " -q");
    CHECK(loud.exit_code == 0);
    CHECK(quiet.exit_code == 0);
    CHECK(!loud.err.empty());  // progress, on a terminal
    CHECK(quiet.err.empty());
    CHECK(q.err.empty());
    CHECK(!quiet.out.empty());
    CHECK(WithoutTimings(quiet.out) == WithoutTimings(loud.out));
    CHECK(WithoutTimings(q.out) == WithoutTimings(loud.out));
  }
}

}  // namespace migsim
