#include "sim/cli/plan_command.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "sim/cli/failure.h"
#include "sim/io/plan_json.h"
#include "sim/report/output_dir.h"
#include "sim/report/plan_report.h"

namespace migsim {
namespace {

// One line per evaluation on stderr, only on a terminal (pipes and CI logs stay clean).
void ShowEvaluation(const PlanConfiguration& c, int nodes, const PlanEvaluation& e) {
  std::fprintf(stderr, "%s: %d node%s, $%.2f/h: %s\n", c.name.c_str(), nodes, nodes == 1 ? "" : "s",
               e.cost_per_hour, e.meets ? "meets" : ("misses (" + e.why_not + ")").c_str());
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
  if (!options.out_dir.empty()) {
    if (Status s = CheckOutputDir("--out", options.out_dir); !s.ok()) return Fail(s, kBadInput);
    Status s =
        CheckOutputTargets(TargetsIn("--out", options.out_dir, {"plan.csv", "evidence.csv"}));
    if (!s.ok()) return Fail(s, kBadInput);
  }
  PlanRunOptions run{.jobs = options.jobs, .on_evaluation = nullptr};
  if (!options.quiet && isatty(STDERR_FILENO)) run.on_evaluation = ShowEvaluation;
  const auto start = std::chrono::steady_clock::now();
  const PlanResult result = RunPlan(plan, run);
  if (run.on_evaluation) {
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "%.2f s wall\n", took.count());
  }
  if (!options.out_dir.empty()) {
    Status s = WriteFiles(options.out_dir, {{"plan.csv", FormatPlanCsv(result)},
                                            {"evidence.csv", FormatEvidenceCsv(result)}});
    if (!s.ok()) {
      return Fail(s, kInternalError);
    }
  }
  for (const std::string& note : UnservedNotes(result)) {
    std::fprintf(stderr, "migsim: warning: %s\n", note.c_str());
  }
  std::cout << FormatPlanTable(result);
  return 0;
}

}  // namespace migsim
