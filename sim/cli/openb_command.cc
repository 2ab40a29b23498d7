#include "sim/cli/openb_command.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "sim/cli/failure.h"
#include "sim/cli/openb_flags.h"
#include "sim/cli/progress.h"
#include "sim/report/fill_results.h"
#include "sim/report/openb_report.h"
#include "sim/report/openb_summary.h"
#include "sim/report/openb_summary_json.h"
#include "sim/report/output_dir.h"
#include "sim/study/openb/openb_campaign.h"
#include "sim/study/openb/openb_data_dir.h"

namespace migsim {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The names of the files --out holds, the MIG edition's after the milli-GPU runs'.
std::vector<std::string> OutNames(bool mig) {
  std::vector<std::string> names{"alloc_discrete.csv", "frag_discrete.csv",
                                 "frag_ratio_discrete.csv", "failed_pods.csv", "final_state.csv"};
  if (mig) {
    names.insert(names.end(),
                 {"mig_placed_discrete.csv", "mig_slices_discrete.csv", "mig_frag_discrete.csv"});
  }
  return names;
}

// The MIG edition after the milli-GPU runs: its table unless `json`, and its CSVs (in
// OutNames' order) appended to `files` unless it is null.
std::vector<MigFillRun> RunMigEdition(const OpenbInputs& inputs, int64_t openb_gpus,
                                      CampaignOptions campaign, bool progress, bool json,
                                      std::vector<std::string>* files) {
  campaign.progress = TerminalProgress(progress, "MIG runs done");
  const auto start = std::chrono::steady_clock::now();
  const std::vector<MigFillRun> mig = RunMigCampaign(inputs, openb_gpus, campaign);
  if (progress) std::fprintf(stderr, "\n");
  const double took = SecondsSince(start);
  if (files != nullptr) {
    files->push_back(FormatMigCsv(mig, &MigCurves::placed));
    files->push_back(FormatMigCsv(mig, &MigCurves::slices));
    files->push_back(FormatMigCsv(mig, &MigCurves::frag));
  }
  if (!json) {
    std::fputs(FormatMigSummary(mig).c_str(), stdout);
    std::printf("%zu MIG runs in %.1f s\n", mig.size(), took);
  }
  return mig;
}

// The sources: --data, else the first place that holds the data (openb_data_dir.h).
OpenbSources Sources(const OpenbOptions& o) {
  const char* env = std::getenv("MIGSIM_OPENB_DIR");
  const OpenbDataDir data =
      FindOpenbDataDir(o.data_dir, env != nullptr ? env : "", ExecutableDirectory());
  return {data.dir, o.nodes, o.traces, data.LookedMessage()};
}

// Pods a policy placed where the engine's checks refused, per policy that had any.
std::map<std::string, int64_t> Refusals(const std::vector<FillRun>& runs) {
  std::map<std::string, int64_t> refused;
  for (const FillRun& r : runs) {
    if (r.result.answers_refused > 0) refused[r.config.policy] += r.result.answers_refused;
  }
  return refused;
}

// The refusals said per policy when any were.
void PrintRefusals(const std::vector<FillRun>& runs) {
  for (const auto& [policy, count] : Refusals(runs)) {
    std::printf(
        "%s: %lld placements refused by the checks (invalid node or devices), counted "
        "as failed pods\n",
        policy.c_str(), static_cast<long long>(count));
  }
}

}  // namespace

int OpenbCommand(const OpenbOptions& o) {
  const auto bad = [](const Status& s) { return Fail(s, kBadInput); };
  Result<std::vector<FillPolicy>> policies = ResolveFillPolicies(o.policies, o.policy_files);
  if (!policies.ok()) return bad(policies.status());
  if (Status s = CheckTune(o.tune); !s.ok()) return bad(s);
  Result<std::vector<uint64_t>> seeds = ParseSeeds(o.seeds);
  if (!seeds.ok()) return bad(seeds.status());
  if (!o.out_dir.empty()) {
    if (Status s = CheckOutputDir("--out", o.out_dir); !s.ok()) return bad(s);
  }
  Result<OpenbInputs> inputs = LoadOpenbInputs(Sources(o));
  if (!inputs.ok()) return bad(inputs.status());
  if (Status s = CheckFillPolicies(inputs.value(), policies.value()); !s.ok()) return bad(s);
  std::vector<OutputTarget> targets;
  if (!o.out_dir.empty()) targets = TargetsIn("--out", o.out_dir, OutNames(o.mig));
  if (!o.report.empty()) {
    if (Status s = CheckOutputFile("--report", o.report); !s.ok()) return bad(s);
    targets.push_back({"--report", o.report});
  }
  if (Status s = CheckOutputTargets(targets); !s.ok()) return bad(s);
  const bool writes = !o.out_dir.empty() || !o.report.empty();
  const bool progress = ShowsProgress(o.quiet);
  const CampaignOptions campaign{.seeds = seeds.value(),
                                 .tune = o.tune,
                                 .threads = static_cast<int>(WorkerCount(o.jobs)),
                                 .progress = TerminalProgress(progress, "runs done")};
  const auto start = std::chrono::steady_clock::now();
  const std::vector<FillRun> runs = RunFillCampaign(inputs.value(), policies.value(), campaign);
  if (progress) std::fprintf(stderr, "\n");
  const double took = SecondsSince(start);
  std::vector<std::string> files;  // formatted only for --out and --report
  if (writes) {
    files = {FormatAllocCsv(runs), FormatFragCsv(runs), FormatFragRatioCsv(runs),
             FormatFailedCsv(runs), FormatFinalStateCsv(runs)};
  }
  const std::vector<std::string> labels = FillPolicyLabels(policies.value());
  if (!o.json) {
    std::fputs(FormatFillSummary(runs, labels).c_str(), stdout);
    std::fputs(FormatFinalStateSummary(runs, labels).c_str(), stdout);
    PrintRefusals(runs);
    std::printf("%zu runs in %.1f s on %d threads\n", runs.size(), took, campaign.threads);
  }
  std::vector<MigFillRun> mig;
  if (o.mig) {
    mig = RunMigEdition(inputs.value(), runs.front().result.total_gpus, campaign, progress,
                        o.json, writes ? &files : nullptr);
  }
  // After the files: a run that cannot write them prints nothing on stdout.
  const auto print_json = [&] {
    if (o.json) {
      std::fputs(FormatOpenbJson(runs, labels, Refusals(runs), o.mig ? &mig : nullptr).c_str(),
                 stdout);
    }
    return 0;
  };
  if (!writes) return print_json();
  // One set: an interrupted --mig run leaves none of the files, not the first five.
  std::vector<std::pair<std::string, std::string>> named;
  const std::vector<std::string> names = OutNames(o.mig);
  for (size_t i = 0; i < names.size(); ++i) named.emplace_back(names[i], std::move(files[i]));
  std::vector<OutputFile> out;
  if (!o.out_dir.empty()) out = FilesIn(o.out_dir, named);
  if (!o.report.empty()) {
    Result<std::string> html = OpenbReportFromFiles(named, "");
    if (!html.ok()) return Fail(html.status(), kInternalError);
    out.push_back({o.report, std::move(html).value()});
  }
  const std::vector<std::string> dirs = {o.out_dir};
  if (Status s = PublishOutputs(o.out_dir.empty() ? std::vector<std::string>{} : dirs, out);
      !s.ok()) {
    return Fail(s, kInternalError);
  }
  return print_json();
}

}  // namespace migsim
