#pragma once
// `migsim openb`: the fill experiment of the ATC'23 FGD study on the Alibaba openb trace,
// policies x seeds x traces on all cores; prints allocation at 100 % and 130 % arrived per
// policy (mean +- sd over seeds) and writes the study's CSVs.

#include <string>
#include <vector>

namespace migsim {

struct OpenbOptions {
  // Holds openb_node_list_gpu_node.csv and the traces; "" to look for it
  // (openb_data_dir.h: $MIGSIM_OPENB_DIR, beside the executable, the install, ../shared).
  std::string data_dir;
  std::string nodes;                  // node CSV; default <data_dir>/openb_node_list_gpu_node.csv
  std::vector<std::string> traces;    // "default", "gpushare40", ..., "all", or CSV paths
  std::vector<std::string> policies;  // GpuShareScorerNames() entries, built-ins, or "all"
  std::vector<std::string> policy_files;  // JSON policy objects, as a scenario's "policy"
  std::string seeds = "42-51";            // "42-51" or "1,2,3"
  double tune = 1.3;
  std::string out_dir;  // alloc_discrete.csv, frag_discrete.csv, ...
  int jobs = 0;         // 0: every core
  bool quiet = false;
  // Also run the MIG edition: the same pods on p4d nodes with A100 MIG, static layouts and
  // dynamic partitioning (mig_placed/slices/frag_discrete.csv).
  bool mig = false;
  std::string report;  // also write the HTML report (openb_report.h) here
  bool json = false;   // the tables as one JSON document (FormatOpenbJson), printed at the end
};

// Exit code: 0 success, 1 when an output file cannot be written, 2 bad input.
int OpenbCommand(const OpenbOptions& options);

}  // namespace migsim
