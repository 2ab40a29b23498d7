#include "sim/cli/plan_command.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "sim/cli/failure.h"
#include "sim/io/plan_json.h"
#include "sim/report/output_dir.h"
#include "sim/report/plan_report.h"
#include "sim/report/plan_result_json.h"
#include "sim/report/plan_study_report.h"

namespace migsim {
namespace {

// One line per evaluation on stderr, only on a terminal (pipes and CI logs stay clean).
void ShowEvaluation(const PlanConfiguration& c, int nodes, const PlanEvaluation& e) {
  std::fprintf(stderr, "%s: %d node%s, $%.2f/h: %s\n", c.name.c_str(), nodes, nodes == 1 ? "" : "s",
               e.cost_per_hour, e.meets ? "meets" : ("misses (" + e.why_not + ")").c_str());
}

// --out's CSVs and --report (drawn from them): one set, published together or not at all.
Status WritePlanOutputs(const PlanOptions& options, const PlanResult& result) {
  if (options.out_dir.empty() && options.report.empty()) return Status::Ok();
  const std::vector<std::pair<std::string, std::string>> csvs = {
      {"plan.csv", FormatPlanCsv(result)},
      {"evidence.csv", FormatEvidenceCsv(result)},
      {"objectives.csv", FormatObjectivesCsv(result.plan->slo)}};
  std::vector<std::string> dirs;
  std::vector<OutputFile> files;
  if (!options.out_dir.empty()) {
    dirs.push_back(options.out_dir);
    files = FilesIn(options.out_dir, csvs);
  }
  if (!options.report.empty()) {
    Result<std::string> html = PlanReportFromFiles(csvs, "");
    if (!html.ok()) return html.status();
    files.push_back({options.report, std::move(html).value()});
  }
  return PublishOutputs(dirs, files);
}

}  // namespace

int PlanCommand(const PlanOptions& options) {
  Result<PlanFile> loaded = LoadPlanFile(options.plan_path);
  if (!loaded.ok()) {
    return Fail(loaded.status(), kBadInput);
  }
  const PlanFile& plan = loaded.value();
  if (const std::string nothing = PlanSeedsChangeNothing(plan); !nothing.empty()) {
    std::fprintf(stderr, "migsim: %s\n", nothing.c_str());
  }
  std::vector<OutputTarget> targets;
  if (!options.out_dir.empty()) {
    if (Status s = CheckOutputDir("--out", options.out_dir); !s.ok()) return Fail(s, kBadInput);
    targets = TargetsIn("--out", options.out_dir, {"plan.csv", "evidence.csv", "objectives.csv"});
  }
  if (!options.report.empty()) {
    if (Status s = CheckOutputFile("--report", options.report); !s.ok()) return Fail(s, kBadInput);
    targets.push_back({"--report", options.report});
  }
  if (Status s = CheckOutputTargets(targets); !s.ok()) return Fail(s, kBadInput);
  PlanRunOptions run{.jobs = options.jobs, .on_evaluation = nullptr};
  if (!options.quiet && isatty(STDERR_FILENO)) run.on_evaluation = ShowEvaluation;
  const auto start = std::chrono::steady_clock::now();
  const PlanResult result = RunPlan(plan, run);
  if (run.on_evaluation) {
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "%.2f s wall\n", took.count());
  }
  if (Status s = WritePlanOutputs(options, result); !s.ok()) return Fail(s, kInternalError);
  for (const std::string& note : UnservedNotes(result)) {
    std::fprintf(stderr, "migsim: warning: %s\n", note.c_str());
  }
  std::cout << (options.json ? FormatPlanJson(result) : FormatPlanTable(result));
  return 0;
}

}  // namespace migsim
