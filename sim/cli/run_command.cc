#include "sim/cli/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "policies/registry.h"
#include "sim/core/text.h"
#include "sim/io/output_dir.h"
#include "sim/io/run_report.h"
#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

constexpr int kBadInput = 2;

// Progress goes to stderr, and only to a terminal: pipes and CI logs stay clean.
class Progress {
 public:
  explicit Progress(bool quiet) : on_(!quiet && isatty(STDERR_FILENO)) {}
  void Begin(const std::string& variant, size_t i, size_t n) {
    if (!on_) return;
    start_ = std::chrono::steady_clock::now();
    std::fprintf(stderr, "[%zu/%zu] %s ...", i + 1, n, variant.c_str());
  }
  void End() {
    if (!on_) return;
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
    std::fprintf(stderr, " %.2f s\n", took.count());
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point start_;
};

Status CheckVariantNames(const ScenarioFile& file, const std::vector<std::string>& wanted) {
  for (const std::string& name : wanted) {
    std::vector<std::string> known;
    for (const auto& [variant, scenario] : file.variants) known.push_back(variant);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return Status::InvalidArgument(
          "no variant '" + name + "' (variants: " + JoinNames(known) + ")",
          {file.path, "/variants"});
    }
  }
  return Status::Ok();
}

bool Wanted(const std::vector<std::string>& wanted, const std::string& name) {
  return wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
}

std::vector<std::pair<std::string, std::string>> OutputFiles(const RunReport& report) {
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("summary.json", FormatResultsJson(report));
  for (const VariantResult& v : report.variants) {
    files.emplace_back("pods-" + v.name + ".csv", FormatPodsCsv(v));
  }
  return files;
}

}  // namespace

int RunCommand(const RunOptions& options) {
  Result<ScenarioFile> loaded = LoadScenarioFile(options.scenario_path);
  if (!loaded.ok()) {
    std::cerr << "migsim: " << loaded.status().ToString() << "\n";
    return kBadInput;
  }
  const ScenarioFile& file = loaded.value();
  if (Status s = CheckVariantNames(file, options.variants); !s.ok()) {
    std::cerr << "migsim: " << s.ToString() << "\n";
    return kBadInput;
  }
  RunReport report{&file, {}};
  Progress progress(options.quiet);
  SimulateOptions sim_options{.collect_pods = !options.out_dir.empty()};
  for (size_t i = 0; i < file.variants.size(); ++i) {
    const auto& [name, scenario] = file.variants[i];
    if (!Wanted(options.variants, name)) continue;
    progress.Begin(name, i, file.variants.size());
    std::unique_ptr<Policy> policy = MakePolicy(scenario.policy);  // validated by the loader
    report.variants.push_back(Simulate(name, scenario, *policy, sim_options));
    progress.End();
  }
  if (!options.out_dir.empty()) {
    if (Status s = WriteFiles(options.out_dir, OutputFiles(report)); !s.ok()) {
      std::cerr << "migsim: " << s.ToString() << "\n";
      return 1;
    }
  }
  std::cout << (options.json ? FormatResultsJson(report) : FormatSummaryTable(report));
  return 0;
}

}  // namespace migsim
