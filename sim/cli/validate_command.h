#pragma once
// `migsim validate FILE`: check a scenario and print what it would simulate — per
// variant, the nodes and what their device plugin advertises, the workloads, the policy —
// without running it.

#include <string>

namespace migsim {

// Exit code: 0 valid, 2 bad input (one located message on stderr).
int ValidateCommand(const std::string& path);

}  // namespace migsim
