#pragma once
// `migsim validate FILE`: check a scenario and print what it would simulate — per
// variant, the nodes and what their device plugin advertises, the workloads, the policy —
// without running it.

#include <string>
#include <vector>

namespace migsim {

// Exit code: 0 valid, 2 bad input (one located message on stderr).
// `manifests`: Kubernetes manifest files or directories added to the scenario's own.
// `json`: the facts as one JSON document (FormatValidateJson) instead of text.
int ValidateCommand(const std::string& path, const std::vector<std::string>& manifests = {},
                    bool json = false);

}  // namespace migsim
