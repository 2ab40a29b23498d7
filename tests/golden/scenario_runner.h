#pragma once
// Runs the scenario files of scenarios/ in-process for the seed and golden tests.

#include <memory>
#include <string>
#include <vector>

#include "sim/report/run_report.h"
#include "tests/support/pod_ledger.h"
#include "workloads/scenario.h"

namespace migsim::testing {

struct ScenarioRun {
  ScenarioFile file;
  RunReport report;  // report.file points at `file`
  // One per variant, in report order: the pods as the engine's notifications tell.
  std::vector<std::unique_ptr<test::PodLedger>> ledgers;
  ScenarioRun() = default;
  ScenarioRun(const ScenarioRun&) = delete;
};

// Loads scenarios/<name>.json from the source tree and runs every variant (pods
// collected). Fails the current test when the file does not load.
void RunScenarioFile(const std::string& name, ScenarioRun& run);

// The variant called `name`. Fails the current test when there is none.
const VariantResult& Variant(const ScenarioRun& run, const std::string& name);

// The allocatable count of `resource` on the variant's first node (0 when absent).
int Allocatable(const VariantResult& v, const std::string& resource);

std::string ReadFile(const std::string& path);

// What `migsim run -q --json scenarios/<name>.json` prints from its variants on (the header
// before them names the scenario and its file). Fails the current test unless it exits 0.
std::string CliVariantResults(const std::string& name);

}  // namespace migsim::testing
