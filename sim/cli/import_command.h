#pragma once
// `migsim import`: a cluster snapshot (kubectl get nodes / pods -A -o json) into a scenario.

#include <string>

namespace migsim {

struct ImportOptions {
  std::string nodes_path;  // kubectl get nodes -o json; "-": standard input
  std::string pods_path;   // kubectl get pods -A -o json; "-": standard input (one of the two)
  std::string out = "-";   // the scenario file; "-": standard output
  std::string name = "snapshot";
  double run_s = 3600;       // the job classes' placeholder run time
  double horizon_s = 86400;  // the scenario's horizon_s
  // A folder of Prometheus exports, one "<metric>.json" per query (telemetry::kTelemetryFiles,
  // sim/io/telemetry/telemetry_folder.h); "": none.
  std::string telemetry_dir;
  std::string jobs_path;  // kubectl get jobs -A -o json; "": none
  // Also the report (the scenario file, warnings and notices, which stderr shows as
  // without it) as one JSON document on stdout (FormatImportJson); needs `out` to be a file.
  bool json = false;
};

// Standard input is named "stdin" in messages, and read within the files' limits
// (ReadStandardInput). Exit code: 0 success (warnings and notices on stderr), 2 bad input (one
// message on stderr naming the file, the document and the path; nothing written), 1 when the output
// cannot be written.
int ImportCommand(const ImportOptions& options);

}  // namespace migsim
