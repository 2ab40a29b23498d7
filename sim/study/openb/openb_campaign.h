#pragma once
// The openb campaign of `migsim openb`: the fill experiment (fill_experiment.h) over
// traces x policies x seeds on every core, and its MIG edition (mig_fill.h) over the
// study's MIG variants. Inputs are loaded and checked before anything runs, so a campaign
// that starts cannot fail.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/study/openb/fill_experiment.h"
#include "sim/study/openb/fill_policies.h"
#include "sim/study/openb/mig_fill.h"
#include "sim/study/parallel_for.h"

namespace migsim {

// One finished fill run and what it was.
struct FillRun {
  std::string workload;  // trace name, e.g. "openb_pod_list_default"
  FillConfig config;
  FillResult result;
};

// One finished run of the MIG edition.
struct MigFillRun {
  std::string workload;
  std::string variant;  // "static:all-balanced" or "dynamic:mig-fgd"
  double tune = 1.3;
  uint64_t seed = 0;
  MigFillResult result;
};

// Where the inputs are: `data_dir` holds openb_node_list_gpu_node.csv and the
// openb_pod_list_<name>.csv traces.
struct OpenbSources {
  std::string data_dir;  // "" when none was found (openb_data_dir.h)
  std::string nodes;     // the node CSV; "" for <data_dir>/openb_node_list_gpu_node.csv
  // Trace names ("default", "gpushare40", ...), "all" (every trace in data_dir) or CSV
  // paths (anything with a '/' or ending in .csv); empty means {"default"}.
  std::vector<std::string> traces;
  // Where the data directory was looked for (OpenbDataDir::LookedMessage), for errors.
  std::string looked;
};

// The inputs, loaded and checked: uniquely named nodes, a model for every GPU node and at
// least one GPU; traces that are not empty and whose file names differ.
struct OpenbInputs {
  std::vector<FillNode> nodes;
  std::vector<std::vector<FillPod>> traces;
  std::vector<std::string> trace_names;  // one per trace: the file name without .csv
};

// InvalidArgument (or the reader's error) naming the file and the problem; the message
// says where the data is looked for when the node CSV or a named trace is missing.
Result<OpenbInputs> LoadOpenbInputs(const OpenbSources& sources);

struct CampaignOptions {
  std::vector<uint64_t> seeds;  // not empty
  double tune = 1.3;            // FillConfig::tune_ratio
  int threads = 1;              // worker threads, >= 1
  ProgressFn progress;          // after each run; optional
};

// InvalidArgument when a policy other than the exact six could not see the nodes (the
// engine's view needs whole CPU cores); check before RunFillCampaign.
Status CheckFillPolicies(const OpenbInputs& inputs, const std::vector<FillPolicy>& policies);

// One run per trace x policy x seed, in that order (trace outermost), whatever the
// threads did. REQUIRES: CheckFillPolicies; `make` returns a policy.
std::vector<FillRun> RunFillCampaign(const OpenbInputs& inputs,
                                     const std::vector<FillPolicy>& policies,
                                     const CampaignOptions& options);
// The exact path for each of `policies`, GpuShareScorerNames() entries.
std::vector<FillRun> RunFillCampaign(const OpenbInputs& inputs,
                                     const std::vector<std::string>& policies,
                                     const CampaignOptions& options);

// A variant of the MIG edition: a static layout on every GPU placed by mig-best-fit, or
// dynamic partitioning with one of the MIG policies.
struct MigVariant {
  std::string name;    // "static:<layout>" or "dynamic:<policy>"
  std::string layout;  // a mig-parted config name; "" for dynamic
  std::string policy;  // a MigScorerNames() entry
};

// The study's variants: five static layouts, then every MIG policy dynamically.
std::vector<MigVariant> MigVariants();

// The MIG edition on p4d nodes with as many GPUs as the openb cluster (`openb_gpus`, 6212
// for the study's), whose capacity also sets the top-up target, as in the milli-GPU runs.
// One run per trace x MigVariants() x seed, in that order.
std::vector<MigFillRun> RunMigCampaign(const OpenbInputs& inputs, int64_t openb_gpus,
                                       const CampaignOptions& options);

}  // namespace migsim
