#pragma once
// `migsim plan`: for each candidate configuration of a node pool, the fewest nodes that
// meet a plan's objectives on the scenario's workload; the cheapest is recommended.

#include <string>

namespace migsim {

struct PlanOptions {
  std::string plan_path;
  std::string out_dir;  // also write plan.csv, evidence.csv and objectives.csv here
  int jobs = 0;         // configurations evaluated at once; 0: one per core
  bool quiet = false;   // no progress on stderr
  std::string report;   // also write the HTML report (plan_study_report.h) here
  bool json = false;    // the result as one JSON document (FormatPlanJson), not the table
};

// Exit code: 0 success (whether or not a configuration meets the objectives), 2 bad
// input (message on stderr naming the file and JSON pointer, nothing written), 1 when
// the output files cannot be written.
int PlanCommand(const PlanOptions& options);

}  // namespace migsim
