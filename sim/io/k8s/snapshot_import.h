#pragma once
// `migsim import`: a cluster snapshot — `kubectl get nodes -o json` and `kubectl get pods -A
// -o json` — turned into a scenario a user can edit and run. Nodes become node pools, bound
// pods the initial state (templates with a nodeName), pending pods the queue at time 0.
// The mapping is described in README.md ("migsim import").

#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/telemetry/pod_observations.h"

namespace migsim::k8s {

struct SnapshotOptions {
  std::string name = "snapshot";  // the scenario's name
  // The run time given to every job class the importer writes (a snapshot does not say how
  // long a Job's or a bare pod's container runs): a placeholder to edit, listed in notices.
  double run_s = 3600;
  double horizon_s = 86400;  // the scenario's horizon (Deployments run until deleted)
  // What was observed besides the snapshot's finished pods (sim/io/k8s/snapshot_observed.h):
  // the telemetry's pods (nullptr: none given) and `kubectl get jobs -A -o json` (jobs_label
  // "" when not given).
  const telemetry::PodObservations* telemetry = nullptr;
  std::string jobs_text{}, jobs_label{};
};

struct SnapshotScenario {
  std::string json;                   // the scenario, indented, ending in a newline
  std::vector<std::string> warnings;  // what could not be mapped, each with its place
  std::vector<std::string> notices;   // what was decided for the user to check
};

// Imports the two texts (JSON or YAML; a `kind: List` — or NodeList, PodList — object with
// `items`, or single Node and Pod objects, in any number of documents). `nodes_label` and
// `pods_label` name the files in messages. Errors (nothing is imported):
//  - ParseError "<file>:line L, column C: malformed YAML: <reason>";
//  - InvalidArgument "<file>: document N: items[3].status.capacity.cpu (line L): <problem>".
// Warnings name the place the same way; the jobs text's errors too. Fuzzable: no file is read.
Result<SnapshotScenario> ImportSnapshot(std::string_view nodes_text, const std::string& nodes_label,
                                        std::string_view pods_text, const std::string& pods_label,
                                        const SnapshotOptions& options);

}  // namespace migsim::k8s
