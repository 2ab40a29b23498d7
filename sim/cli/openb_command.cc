#include "sim/cli/openb_command.h"

#include <chrono>
#include <cstdio>

#include "sim/cli/failure.h"
#include "sim/cli/openb_flags.h"
#include "sim/cli/progress.h"
#include "sim/report/fill_results.h"
#include "sim/report/openb_summary.h"
#include "sim/report/output_dir.h"
#include "sim/study/openb/openb_campaign.h"

namespace migsim {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The MIG edition after the milli-GPU runs: its CSVs and its table.
int RunMigEdition(const OpenbOptions& o, const OpenbInputs& inputs, int64_t openb_gpus,
                  CampaignOptions campaign, bool progress) {
  campaign.progress = TerminalProgress(progress, "MIG runs done");
  const auto start = std::chrono::steady_clock::now();
  const std::vector<MigFillRun> mig = RunMigCampaign(inputs, openb_gpus, campaign);
  if (progress) std::fprintf(stderr, "\n");
  const double took = SecondsSince(start);
  if (!o.out_dir.empty()) {
    Status s =
        WriteFiles(o.out_dir, {{"mig_placed_discrete.csv", FormatMigCsv(mig, &MigCurves::placed)},
                               {"mig_slices_discrete.csv", FormatMigCsv(mig, &MigCurves::slices)},
                               {"mig_frag_discrete.csv", FormatMigCsv(mig, &MigCurves::frag)}});
    if (!s.ok()) return Fail(s, kInternalError);
  }
  std::fputs(FormatMigSummary(mig).c_str(), stdout);
  std::printf("%zu MIG runs in %.1f s\n", mig.size(), took);
  return 0;
}

}  // namespace

int OpenbCommand(const OpenbOptions& o) {
  const auto bad = [](const Status& s) { return Fail(s, kBadInput); };
  Result<std::vector<std::string>> policies = CheckPolicies(o.policies);
  if (!policies.ok()) return bad(policies.status());
  if (Status s = CheckTune(o.tune); !s.ok()) return bad(s);
  Result<std::vector<uint64_t>> seeds = ParseSeeds(o.seeds);
  if (!seeds.ok()) return bad(seeds.status());
  if (!o.out_dir.empty()) {
    if (Status s = CheckOutputDir("--out", o.out_dir); !s.ok()) return bad(s);
  }
  Result<OpenbInputs> inputs = LoadOpenbInputs({o.data_dir, o.nodes, o.traces});
  if (!inputs.ok()) return bad(inputs.status());
  const bool progress = ShowsProgress(o.quiet);
  const CampaignOptions campaign{.seeds = seeds.value(),
                                 .tune = o.tune,
                                 .threads = static_cast<int>(WorkerCount(o.jobs)),
                                 .progress = TerminalProgress(progress, "runs done")};
  const auto start = std::chrono::steady_clock::now();
  const std::vector<FillRun> runs = RunFillCampaign(inputs.value(), policies.value(), campaign);
  if (progress) std::fprintf(stderr, "\n");
  const double took = SecondsSince(start);
  if (!o.out_dir.empty()) {
    Status s = WriteFiles(o.out_dir, {{"alloc_discrete.csv", FormatAllocCsv(runs)},
                                      {"frag_discrete.csv", FormatFragCsv(runs)},
                                      {"frag_ratio_discrete.csv", FormatFragRatioCsv(runs)},
                                      {"failed_pods.csv", FormatFailedCsv(runs)},
                                      {"final_state.csv", FormatFinalStateCsv(runs)}});
    if (!s.ok()) return Fail(s, kInternalError);
  }
  std::fputs(FormatFillSummary(runs, policies.value()).c_str(), stdout);
  std::fputs(FormatFinalStateSummary(runs, policies.value()).c_str(), stdout);
  std::printf("%zu runs in %.1f s on %d threads\n", runs.size(), took, campaign.threads);
  if (!o.mig) return 0;
  return RunMigEdition(o, inputs.value(), runs.front().result.total_gpus, campaign, progress);
}

}  // namespace migsim
