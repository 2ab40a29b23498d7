#pragma once
// `migsim run`: load a scenario, run its variants, print and write the results.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/metrics/latency_summary.h"

namespace migsim {

struct RunCommandOptions {
  std::string scenario_path;
  bool json = false;                  // print JSON instead of the table
  std::string out_dir;                // also write summary.json and pods-<variant>.csv
  std::vector<std::string> variants;  // run only these (all when empty)
  bool quiet = false;                 // no progress on stderr
  std::string report;                 // also write a self-contained HTML report here
  std::string trace;                  // also write Chrome trace-event JSON (Perfetto) here
  // Kubernetes manifest files or directories added to the scenario's `manifests`.
  std::vector<std::string> manifests;
  // Replaces the seed of the scenario and of every variant (ScenarioLoadOptions::seed).
  std::optional<uint64_t> seed;
  // Values a percentile keeps exact, and the pods past which a run gives back the records
  // of pods that are over (RunOptions::exact_limit; README "Large runs").
  size_t exact_limit = kExactValues;
};

// Exit code: 0 success, 2 bad input (message on stderr, nothing written).
int RunCommand(const RunCommandOptions& options);

}  // namespace migsim
