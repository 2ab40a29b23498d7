#include "sim/cli/run_command.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "sim/cli/failure.h"
#include "sim/cli/progress.h"
#include "sim/core/text.h"
#include "sim/io/scenario_json.h"
#include "sim/report/output_dir.h"
#include "sim/report/run_report.h"
#include "sim/study/random_draws.h"
#include "sim/study/unschedulable_warnings.h"

namespace migsim {
namespace {

// Progress goes to stderr, and only to a terminal: pipes and CI logs stay clean. A
// variant that runs longer than a second gets a live line (simulated time of the horizon,
// pods ended), refreshed at most ten times a second as simulated time moves (the engine's
// OnProgress, every few thousand instants) or pods end; every variant gets its wall time
// when done.
class Progress final : public EngineObserver {
 public:
  explicit Progress(bool quiet) : on_(ShowsProgress(quiet)) {}
  bool on() const { return on_; }
  void Begin(const std::string& variant, size_t i, size_t n, SimTime horizon) {
    if (!on_) return;
    start_ = last_ = Clock::now();
    horizon_ = horizon;
    label_ = "[" + std::to_string(i + 1) + "/" + std::to_string(n) + "] " + variant;
    ended_ = submitted_ = 0;
    std::fprintf(stderr, "%s ...", label_.c_str());
  }
  void End() {
    if (!on_) return;
    std::chrono::duration<double> took = Clock::now() - start_;
    std::fprintf(stderr, "\r%s: %lld pods, %.2f s wall\x1b[K\n", label_.c_str(),
                 static_cast<long long>(submitted_), took.count());
  }
  void OnPodSubmitted(SimTime, const Pod&) override { ++submitted_; }
  void OnPodEnded(SimTime now, const Pod&) override {
    if ((++ended_ & 1023) == 0) Show(now);  // look at the clock every 1024 pods only
  }
  void OnProgress(SimTime now, SimTime) override { Show(now); }

 private:
  using Clock = std::chrono::steady_clock;
  void Show(SimTime now) {
    const Clock::time_point t = Clock::now();
    if (t - start_ < std::chrono::seconds(1) || t - last_ < std::chrono::milliseconds(100)) return;
    last_ = t;
    std::fprintf(stderr, "\r%s: %s, %lld of %lld pods ended\x1b[K", label_.c_str(),
                 SimulatedProgress(now, horizon_).c_str(), static_cast<long long>(ended_),
                 static_cast<long long>(submitted_));
  }

  bool on_;
  std::string label_;
  SimTime horizon_ = SimTime::Max();
  Clock::time_point start_, last_;
  int64_t ended_ = 0, submitted_ = 0;
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

// The names --out holds for these variants: summary.json, then per variant its pods and
// time-series CSVs, then energy.csv.
std::vector<std::string> OutDirNames(const std::vector<std::string>& variants) {
  std::vector<std::string> names{"summary.json"};
  for (const std::string& v : variants) {
    names.push_back("pods-" + v + ".csv");
    names.push_back("timeseries-" + v + ".csv");
  }
  names.push_back("energy.csv");
  return names;
}

// Every output of the run, checked together once the scenario (and every file it names)
// is read and before anything runs: see CheckOutputTargets.
Status CheckOutputs(const RunCommandOptions& options, const ScenarioFile& file) {
  std::vector<OutputTarget> targets;
  if (!options.out_dir.empty()) {
    if (Status s = CheckOutputDir("--out", options.out_dir); !s.ok()) return s;
    std::vector<std::string> variants;
    for (const auto& [name, scenario] : file.variants) {
      if (Wanted(options.variants, name)) variants.push_back(name);
    }
    targets = TargetsIn("--out", options.out_dir, OutDirNames(variants));
  }
  for (const auto& [flag, path] :
       {std::pair{"--report", &options.report}, std::pair{"--trace", &options.trace}}) {
    if (path->empty()) continue;
    if (Status s = CheckOutputFile(flag, *path); !s.ok()) return s;
    targets.push_back({flag, *path});
  }
  return CheckOutputTargets(targets);
}

// The pods CSV of each variant, written as the run goes (RunOptions::pod_sink) to an
// anonymous temporary file, from which --out's file is published: a run of a hundred
// million pods does not hold their rows. Closed (and gone) with this object.
class PodsSpools {
 public:
  PodsSpools() = default;
  PodsSpools(const PodsSpools&) = delete;
  PodsSpools& operator=(const PodsSpools&) = delete;
  ~PodsSpools() {
    for (std::FILE* f : files_) std::fclose(f);
  }
  // A new spool with the CSV's header; nullptr when no temporary file can be made.
  std::FILE* Begin() {
    std::FILE* f = std::tmpfile();
    if (f == nullptr) return nullptr;
    files_.push_back(f);
    std::fputs(PodsCsvHeader().c_str(), f);
    return f;
  }
  std::FILE* at(size_t i) const { return files_[i]; }

 private:
  std::vector<std::FILE*> files_;
};

// --out's files, --report and --trace: one set, published together or not at all. The pods
// CSVs come from `spools` (by variant).
Status WriteOutputs(const RunCommandOptions& options, const RunReport& report,
                    const PodsSpools& spools) {
  std::vector<std::string> dirs, variants;
  std::vector<OutputFile> files;
  if (!options.out_dir.empty()) {
    for (const VariantResult& v : report.variants) variants.push_back(v.name);
    const std::vector<std::string> names = OutDirNames(variants);
    std::vector<std::pair<std::string, std::string>> in_dir{{names[0], FormatResultsJson(report)}};
    for (size_t i = 0; i < report.variants.size(); ++i) {
      in_dir.emplace_back(names[1 + 2 * i], "");
      in_dir.emplace_back(names[2 + 2 * i], FormatTimeseriesCsv(report.variants[i]));
    }
    in_dir.emplace_back(names.back(), FormatEnergyCsv(report));
    dirs.push_back(options.out_dir);
    files = FilesIn(options.out_dir, in_dir);
    for (size_t i = 0; i < report.variants.size(); ++i) files[1 + 2 * i].spool = spools.at(i);
  }
  if (!options.report.empty()) files.push_back({options.report, FormatHtmlReport(report)});
  if (!options.trace.empty()) files.push_back({options.trace, FormatChromeTrace(report)});
  return PublishOutputs(dirs, files);
}

}  // namespace

int RunCommand(const RunCommandOptions& options) {
  Result<ScenarioFile> loaded = LoadScenarioFile(
      options.scenario_path, {.extra_manifests = options.manifests, .seed = options.seed});
  if (!loaded.ok()) {
    return Fail(loaded.status(), kBadInput);
  }
  const ScenarioFile& file = loaded.value();
  for (const std::string& warning : file.warnings) {
    std::fprintf(stderr, "migsim: warning: %s\n", warning.c_str());
  }
  if (Status s = CheckVariantNames(file, options.variants); !s.ok()) {
    return Fail(s, kBadInput);
  }
  if (options.seed) {
    const std::string nothing =
        SeedChangesNothing(file, "seed " + std::to_string(*options.seed), options.variants);
    if (!nothing.empty()) std::fprintf(stderr, "migsim: %s\n", nothing.c_str());
  }
  if (Status s = CheckOutputs(options, file); !s.ok()) return Fail(s, kBadInput);
  RunReport report{&file, {}};
  Progress progress(options.quiet);
  const bool details =
      !options.out_dir.empty() || !options.report.empty() || !options.trace.empty();
  RunOptions run_options{.collect_pods = details,
                         .collect_timeline = details,
                         .measure_mig_fragmentation = HasDraPool(file),
                         .measure_cost = HasNodeGroups(file),
                         .exact_limit = options.exact_limit};
  if (progress.on()) run_options.observers.push_back(&progress);
  PodsSpools spools;
  for (size_t i = 0; i < file.variants.size(); ++i) {
    const auto& [name, scenario] = file.variants[i];
    if (!Wanted(options.variants, name)) continue;
    for (const std::string& warning : UnschedulableWarnings(scenario)) {
      std::fprintf(stderr, "migsim: warning: variant %s: %s\n", name.c_str(), warning.c_str());
    }
    progress.Begin(name, i, file.variants.size(), scenario.horizon);
    if (!options.out_dir.empty()) {
      std::FILE* spool = spools.Begin();
      if (spool == nullptr) {
        return Fail(Status::IoError("cannot make a temporary file for the pods CSV: " +
                                        std::string(std::strerror(errno)),
                                    {options.out_dir, ""}),
                    kInternalError);
      }
      run_options.pod_sink = [spool](const PodRecord& pod) {
        std::fputs(PodsCsvRow(pod).c_str(), spool);
      };
    }
    report.variants.push_back(RunVariant(name, scenario, run_options));
    progress.End();
    if (const std::optional<BudgetOverrun>& o = report.variants.back().overrun) {
      // The scenario asked for more than a run may create: bad input, nothing written.
      return Fail(
          Status::InvalidArgument("variant " + name + ": " + OverrunMessage(*o), {file.path, ""}),
          kBadInput);
    }
  }
  for (const auto& warnings : {RejectionWarnings(report), UnservedWarnings(report)}) {
    for (const std::string& warning : warnings) {
      std::fprintf(stderr, "migsim: warning: %s\n", warning.c_str());
    }
  }
  if (Status s = WriteOutputs(options, report, spools); !s.ok()) return Fail(s, kInternalError);
  std::cout << (options.json ? FormatResultsJson(report) : FormatSummaryTable(report));
  return 0;
}

}  // namespace migsim
