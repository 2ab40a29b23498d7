#pragma once
// `migsim completion bash`: a bash completion script written from migsim's own command-line
// definition, so that it names every subcommand and option the binary has. The build writes
// it into build/share/bash-completion/completions/migsim, which the package installs.

#include <string>

namespace CLI {
class App;
}

namespace migsim {

// Adds the hidden subcommand `completion SHELL` (SHELL: bash) to `app`. Add it after the
// subcommands it describes; its callback prints the script and sets `code` to 0.
void AddCompletion(CLI::App& app, int& code);

// The script for `app`'s visible subcommands (hidden ones, in the group "", are left out):
// subcommand names, each one's options, file names for paths and positional arguments.
std::string BashCompletion(const CLI::App& app);

}  // namespace migsim
