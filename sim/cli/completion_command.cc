#include "sim/cli/completion_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli/version.h"

namespace migsim {
namespace {

// What the word after an option (or a positional argument) completes to.
enum class Value { kNone, kFile, kOther };

// A flag takes no value; a path, or free text that may name a file (a trace CSV, a
// scenario), completes to file names; a number or a structured value (NAME=N, i/N) to
// nothing.
Value ValueOf(const CLI::Option& option) {
  if (option.get_expected_max() == 0) return Value::kNone;  // a flag
  const std::string type = option.get_type_name();
  if (type == "TEXT" || type.find("PATH") != std::string::npos) return Value::kFile;
  return Value::kOther;
}

// The names an option is typed as: -q --quiet.
std::vector<std::string> Spellings(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& s : option.get_snames()) names.push_back("-" + s);
  for (const std::string& l : option.get_lnames()) names.push_back("--" + l);
  return names;
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::vector<const CLI::App*> VisibleSubcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

// One `case` branch: the words to offer (options, and subcommands at the top), the options
// whose value is a file name and those whose value is anything else, and whether a
// positional argument is a file name.
std::string CaseBranch(const std::string& label, const CLI::App& app) {
  std::vector<std::string> words, files, others;
  bool positional_file = false;
  for (const CLI::App* sub : VisibleSubcommands(app)) words.push_back(sub->get_name());
  for (const CLI::Option* option : app.get_options()) {
    if (!option->nonpositional()) {  // a positional argument
      positional_file = positional_file || ValueOf(*option) == Value::kFile;
      continue;
    }
    const std::vector<std::string> names = Spellings(*option);
    words.insert(words.end(), names.begin(), names.end());
    const Value value = ValueOf(*option);
    if (value == Value::kFile) files.insert(files.end(), names.begin(), names.end());
    if (value == Value::kOther) others.insert(others.end(), names.begin(), names.end());
  }
  return "    " + label + ")\n      words=\"" + Join(words) + "\"\n      files=\"" + Join(files) +
         "\"\n      others=\"" + Join(others) + "\"\n      positional=" +
         (positional_file ? "file" : "none") + " ;;\n";
}

}  // namespace

std::string BashCompletion(const CLI::App& app) {
  std::string branches = CaseBranch("\"\"", app);
  for (const CLI::App* sub : VisibleSubcommands(app)) branches += CaseBranch(sub->get_name(), *sub);
  return "# bash completion for migsim, written by `migsim completion bash` from the command-line\n"
         "# definition of " +
         VersionLine() +
         ".\n"
         "_migsim_files() {\n"
         "  compopt -o filenames 2>/dev/null\n"
         "  mapfile -t COMPREPLY < <(compgen -f -- \"$1\")\n"
         "}\n"
         "_migsim() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  local sub=\"\" words files others positional i\n"
         "  # --option=value: bash splits the word at '=', so the option is one or two back.\n"
         "  if [[ $cur == \"=\" ]]; then\n"
         "    cur=\"\"\n"
         "  elif [[ $prev == \"=\" ]]; then\n"
         "    prev=${COMP_WORDS[COMP_CWORD-2]}\n"
         "  fi\n"
         "  # The subcommand: the first word that is not an option (migsim's own options take\n"
         "  # no value).\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    if [[ ${COMP_WORDS[i]} != -* ]]; then\n"
         "      sub=${COMP_WORDS[i]}\n"
         "      break\n"
         "    fi\n"
         "  done\n"
         "  case $sub in\n" +
         branches +
         "    *) return ;;\n"
         "  esac\n"
         "  if [[ \" $files \" == *\" $prev \"* ]]; then\n"
         "    _migsim_files \"$cur\"\n"
         "  elif [[ \" $others \" == *\" $prev \"* ]]; then\n"
         "    COMPREPLY=()\n"
         "  elif [[ -z $sub || $cur == -* || $positional != file ]]; then\n"
         "    mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
         "  else\n"
         "    _migsim_files \"$cur\"\n"
         "  fi\n"
         "}\n"
         "complete -F _migsim migsim\n";
}

void AddCompletion(CLI::App& app, int& code) {
  CLI::App* cmd = app.add_subcommand("completion", "Print a shell completion script");
  cmd->group("");  // hidden: the package installs the script
  auto shell = std::make_shared<std::string>();
  cmd->add_option("shell", *shell, "The shell: bash")->required()->check(CLI::IsMember({"bash"}));
  cmd->callback([&app, &code, shell] {
    std::cout << BashCompletion(app);
    code = 0;
  });
}

}  // namespace migsim
