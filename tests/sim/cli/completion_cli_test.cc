// `migsim completion bash`: the completion script is written from the command-line
// definition, so it names every subcommand and option `migsim --help` shows, and bash
// completes with it.
#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

using test::RunMigsim;

// The lines of `text` from the one after `heading` up to the next empty line.
std::vector<std::string> Section(const std::string& text, const std::string& heading) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (inside && line.empty()) break;
    if (inside) lines.push_back(line);
    if (line == heading) inside = true;
  }
  return lines;
}

// The subcommands `migsim --help` lists.
std::vector<std::string> Subcommands() {
  std::vector<std::string> names;
  for (const std::string& line : Section(RunMigsim("--help").output, "Subcommands:")) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    names.push_back(name);
  }
  return names;
}

// The options (-x, --long) `migsim <subcommand> --help` lists under "Options:".
std::vector<std::string> Options(const std::string& subcommand) {
  std::vector<std::string> options;
  const std::regex option(R"((?:^|[ ,])(--?[A-Za-z][A-Za-z0-9-]*))");
  for (const std::string& line : Section(RunMigsim(subcommand + " --help").output, "Options:")) {
    const std::string names = line.substr(0, line.find("  ", 2));  // before the description
    for (std::sregex_iterator m(names.begin(), names.end(), option), end; m != end; ++m) {
      options.push_back((*m)[1].str());
    }
  }
  return options;
}

// The words the script offers for `subcommand` ("" for migsim itself): its case branch's
// words="..." line.
std::string OfferedWords(const std::string& script, const std::string& subcommand) {
  const std::string label = subcommand.empty() ? "\"\"" : subcommand;
  const std::size_t branch = script.find("\n    " + label + ")\n");
  REQUIRE(branch != std::string::npos);
  const std::size_t words = script.find("words=\"", branch);
  return " " + script.substr(words + 7, script.find('"', words + 7) - words - 7) + " ";
}

std::string RunBash(const std::string& script_path) {
  FILE* pipe = popen(("bash --norc --noprofile " + script_path + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  CHECK(WEXITSTATUS(pclose(pipe)) == 0);
  return out;
}

TEST_CASE("the bash completion names every subcommand and every option their --help lists",
          "[cli][completion]") {
  test::Outcome r = RunMigsim("completion bash");
  REQUIRE(r.exit_code == 0);
  const std::vector<std::string> subcommands = Subcommands();
  REQUIRE(subcommands.size() >= 14);
  const std::string top = OfferedWords(r.output, "");
  for (const std::string& sub : subcommands) {
    INFO("migsim " << sub);
    CHECK_THAT(top, Catch::Contains(" " + sub + " "));
    const std::vector<std::string> options = Options(sub);
    CHECK(options.size() >= 2);  // at least -h --help
    const std::string offered = OfferedWords(r.output, sub);
    for (const std::string& option : options) CHECK_THAT(offered, Catch::Contains(" " + option + " "));
  }
  for (const std::string& option : Options("")) CHECK_THAT(top, Catch::Contains(" " + option + " "));
}

TEST_CASE("the completion subcommand is hidden and knows only bash", "[cli][completion]") {
  CHECK_THAT(RunMigsim("--help").output, !Catch::Contains("completion"));
  test::Outcome zsh = RunMigsim("completion zsh");
  CHECK(zsh.exit_code == 2);
  CHECK_THAT(zsh.output, Catch::Contains("zsh"));
}

TEST_CASE("bash completes subcommands, options and file names with the script",
          "[cli][completion]") {
  test::ScratchDir dir("completion");
  REQUIRE(RunMigsim("completion bash > " + dir.Path("migsim.bash")).exit_code == 0);
  dir.Write("scenario-a.json", "{}");
  // complete WORDS...: the completions of the last word, sorted, on one line.
  dir.Write("complete.sh",
            "source " + dir.Path("migsim.bash") + "\ncd " + dir.path().string() +
                "\ncomplete -p migsim\n"
                "complete() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _migsim;\n"
                "  printf '%s\\n' \"${COMPREPLY[@]}\" | sort | tr '\\n' ' '; echo \"|\"; }\n"
                "complete migsim ru\n"
                "complete migsim run --qu\n"
                "complete migsim run scen\n"
                "complete migsim run s.json --out scen\n"
                "complete migsim run s.json --out = scen\n"
                "complete migsim run s.json --seed ''\n"
                "complete migsim gpus --sc\n"
                "complete migsim --ver\n");
  const std::string out = RunBash(dir.Path("complete.sh"));
  CHECK(out ==
        "complete -F _migsim migsim\n"
        "run |\n"
        "--quiet |\n"
        "scenario-a.json |\n"
        "scenario-a.json |\n"
        "scenario-a.json |\n"
        " |\n"
        "--scenario |\n"
        "--version |\n");
}

}  // namespace
}  // namespace migsim
