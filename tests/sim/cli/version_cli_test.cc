// `migsim --version`: the CMake project's version and the commit the binary was built from.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <regex>
#include <string>

#include "tests/support/run_migsim.h"

namespace migsim {
namespace {

TEST_CASE("migsim --version prints the project's version and the commit it was built from",
          "[cli][version]") {
  test::Outcome r = test::RunMigsim("--version");
  CHECK(r.exit_code == 0);
  // `git describe --always --dirty`: an abbreviated hash (a tag, or tag-N-g<hash>, once tags
  // exist), -dirty when the tree had changes; "unknown" outside a git checkout.
  const std::regex line("migsim " + std::string(MIGSIM_PROJECT_VERSION) +
                        R"( \(commit ([0-9A-Za-z._-]+)\)\n)");
  std::smatch match;
  REQUIRE(std::regex_match(r.output, match, line));
  // Built from a git checkout (one git can read): a commit, not "unknown".
  const std::string git = "git -C " + std::string(MIGSIM_SOURCE_DIR) + " rev-parse --show-toplevel";
  if (std::system((git + " >/dev/null 2>&1").c_str()) == 0) CHECK(match[1].str() != "unknown");
}

}  // namespace
}  // namespace migsim
