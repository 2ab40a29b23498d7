#pragma once
// `migsim validate FILE`: check a scenario and print what it would simulate — per
// variant, the nodes and what their device plugin advertises, the workloads, the policy —
// without running it. A sweep or plan file (DocumentKindOf) gets the check `migsim sweep`
// or `migsim plan` makes before running anything (every point, every configuration at one
// node and at max_nodes) and a summary of what it would run (study_facts.h).

#include <string>
#include <vector>

namespace migsim {

// Exit code: 0 valid, 2 bad input (one located message on stderr).
// `manifests`: Kubernetes manifest files or directories added to the scenario's own (a
// usage error with a sweep or plan file).
// `json`: the facts as one JSON document (FormatValidateJson, FormatValidateSweepJson,
// FormatValidatePlanJson) instead of text.
int ValidateCommand(const std::string& path, const std::vector<std::string>& manifests = {},
                    bool json = false);

}  // namespace migsim
