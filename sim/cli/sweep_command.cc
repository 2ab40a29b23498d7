#include "sim/cli/sweep_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "sim/cli/failure.h"
#include "sim/cli/progress.h"
#include "sim/io/input_file.h"
#include "sim/io/sweep_json.h"
#include "sim/report/output_dir.h"
#include "sim/report/sweep_csv.h"
#include "sim/report/sweep_merge.h"
#include "sim/report/sweep_report.h"
#include "sim/report/sweep_results_json.h"
#include "sim/report/sweep_table.h"
#include "sim/study/sweep/sweep_run.h"
#include "sim/study/sweep/sweep_shard.h"

namespace migsim {
namespace {

std::optional<std::string> Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

// --shard wins over the environment a batch system sets.
Result<std::optional<Shard>> ChooseShard(const std::string& flag) {
  if (!flag.empty()) {
    Result<Shard> shard = ParseShard(flag);
    if (!shard.ok()) return shard.status();
    return std::optional<Shard>(shard.value());
  }
  return ShardFromEnvironment({.job_completion_index = Env("JOB_COMPLETION_INDEX"),
                               .slurm_array_task_id = Env("SLURM_ARRAY_TASK_ID"),
                               .migsim_shards = Env("MIGSIM_SHARDS")});
}

// sweep.csv, or a shard's CSV stamped for `migsim merge` (ShardStamp).
std::string SweepCsvText(const SweepFile& sweep, const std::optional<Shard>& shard,
                         const SweepResults& results) {
  if (!shard) return FormatSweepCsv(results);
  std::vector<uint64_t> digests;
  for (const FileRead& file : FilesRead()) digests.push_back(file.digest);
  return FormatSweepShardCsv(results, *shard, sweep.points.size(),
                             SweepDefinitionDigest(sweep, digests));
}

// --out's CSV and --report, checked before anything runs; a shard's report would draw a
// part of the sweep: it is drawn from the merged sweep.csv (`migsim report`).
Status CheckSweepOutputs(const SweepOptions& options, const std::optional<Shard>& shard) {
  std::vector<OutputTarget> targets;
  if (!options.out_dir.empty()) {
    if (Status s = CheckOutputDir("--out", options.out_dir); !s.ok()) return s;
    targets = TargetsIn("--out", options.out_dir, {SweepCsvName(shard)});
  }
  if (!options.report.empty()) {
    if (shard) {
      return Status::InvalidArgument(
          "--report: a shard draws no report; after migsim merge, draw the sweep's with "
          "migsim report DIR");
    }
    if (Status s = CheckOutputFile("--report", options.report); !s.ok()) return s;
    targets.push_back({"--report", options.report});
  }
  return CheckOutputTargets(targets);
}

}  // namespace

int SweepCommand(const SweepOptions& options) {
  if (options.jobs < 0) {
    return Fail(Status::InvalidArgument("--jobs: must be >= 0 (0: every core)"), kBadInput);
  }
  Result<std::optional<Shard>> shard = ChooseShard(options.shard);
  if (!shard.ok()) return Fail(shard.status(), kBadInput);
  Result<SweepFile> sweep = LoadSweepFile(options.sweep_path);
  if (!sweep.ok()) return Fail(sweep.status(), kBadInput);
  if (const std::string nothing = SeedAxisChangesNothing(sweep.value()); !nothing.empty()) {
    std::fprintf(stderr, "migsim: %s\n", nothing.c_str());
  }
  if (Status s = CheckSweepOutputs(options, shard.value()); !s.ok()) return Fail(s, kBadInput);
  const bool progress = ShowsProgress(options.quiet);
  SweepRunOptions run{.threads = static_cast<int>(WorkerCount(options.jobs)),
                      .shard = shard.value(),
                      .on_run_done = TerminalProgress(progress, "runs done")};
  const auto start = std::chrono::steady_clock::now();
  const SweepResults results = RunSweep(sweep.value(), run);
  if (progress) {
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    const std::string shard_label = run.shard ? " (shard " + std::to_string(run.shard->index) +
                                                    "/" + std::to_string(run.shard->count) + ")"
                                              : "";
    std::fprintf(stderr, "%s%s%s: %zu runs in %.2f s on %d threads\n",
                 results.rows.empty() ? "" : "\n", sweep.value().name.c_str(), shard_label.c_str(),
                 results.rows.size(), took.count(),
                 std::max(1, std::min(run.threads, static_cast<int>(results.rows.size()))));
  }
  if (!results.overrun.empty()) {  // the sweep asked for it: bad input, nothing written
    return Fail(Status::InvalidArgument(results.overrun, {options.sweep_path, ""}), kBadInput);
  }
  for (const std::string& rejection : results.rejections) {
    std::fprintf(stderr, "migsim: warning: %s\n", rejection.c_str());
  }
  const std::string csv = SweepCsvText(sweep.value(), run.shard, results);
  std::vector<std::string> dirs;
  std::vector<OutputFile> files;
  if (!options.out_dir.empty()) {
    dirs.push_back(options.out_dir);
    files = FilesIn(options.out_dir, {{SweepCsvName(run.shard), csv}});
  }
  if (!options.report.empty()) {
    Result<std::string> html = SweepReportHtml(csv, "sweep.csv");
    if (!html.ok()) return Fail(html.status(), kInternalError);
    files.push_back({options.report, std::move(html).value()});
  }
  if (Status s = PublishOutputs(dirs, files); !s.ok()) return Fail(s, kInternalError);
  std::cout << (options.json ? FormatSweepJson(results) : FormatSweepTable(results));
  return 0;
}

int MergeCommand(const MergeOptions& options) {
  if (options.inputs.empty()) {
    return Fail(Status::InvalidArgument("merge: give a directory of shard CSVs or the files"),
                kBadInput);
  }
  for (const std::string& input : options.inputs) {
    if (input.empty()) return Fail(Status::InvalidArgument("merge: an empty path"), kBadInput);
  }
  Result<MergedSweep> merged = MergeSweepShardFiles(options.inputs);
  if (!merged.ok()) return Fail(merged.status(), kBadInput);
  std::string out_dir = options.out_dir;
  if (out_dir.empty()) {
    namespace fs = std::filesystem;
    const std::string& first = options.inputs[0];
    std::error_code ec;
    out_dir = fs::is_directory(first, ec) ? first : fs::path(first).parent_path().string();
    if (out_dir.empty()) out_dir = ".";
  }
  if (Status s = CheckOutputDir("--out", out_dir); !s.ok()) return Fail(s, kBadInput);
  if (Status s = CheckOutputTargets(TargetsIn("--out", out_dir, {"sweep.csv"})); !s.ok()) {
    return Fail(s, kBadInput);
  }
  if (Status s = WriteFiles(out_dir, {{"sweep.csv", merged.value().csv}}); !s.ok()) {
    return Fail(s, kInternalError);
  }
  const SweepResults& results = merged.value().results;
  std::cout << (options.json ? FormatSweepJson(results) : FormatSweepTable(results));
  return 0;
}

}  // namespace migsim
