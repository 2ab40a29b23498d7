#include "sim/cli/import_command.h"

#include <iostream>
#include <optional>

#include "sim/cli/failure.h"
#include "sim/io/input_file.h"
#include "sim/io/k8s/snapshot_import.h"
#include "sim/io/telemetry/telemetry_folder.h"
#include "sim/report/command_reports_json.h"
#include "sim/report/output_dir.h"

namespace migsim {

namespace {

constexpr const char* kStdin = "-";

// The name an input goes by in messages: the path, or "stdin" for "-".
std::string Label(const std::string& path) { return path == kStdin ? "stdin" : path; }

Result<std::string> ReadInput(const std::string& path) {
  return path == kStdin ? ReadStandardInput(Label(path)) : ReadInputFile(path);
}

}  // namespace

int ImportCommand(const ImportOptions& options) {
  if (options.nodes_path == kStdin && options.pods_path == kStdin) {
    return Fail(Status::InvalidArgument("--nodes and --pods are both '-': only one input can come "
                                        "from standard input"),
                kBadInput);
  }
  if (options.json && options.out == kStdin) {
    return Fail(Status::InvalidArgument("--json: the report takes standard output, so the "
                                        "scenario needs --out FILE"),
                kBadInput);
  }
  Result<std::string> nodes = ReadInput(options.nodes_path);
  if (!nodes.ok()) return Fail(nodes.status(), kBadInput);
  Result<std::string> pods = ReadInput(options.pods_path);
  if (!pods.ok()) return Fail(pods.status(), kBadInput);
  k8s::SnapshotOptions snapshot;
  snapshot.name = options.name;
  snapshot.run_s = options.run_s;
  snapshot.horizon_s = options.horizon_s;
  if (!options.jobs_path.empty()) {
    Result<std::string> jobs = ReadInputFile(options.jobs_path);
    if (!jobs.ok()) return Fail(jobs.status(), kBadInput);
    snapshot.jobs_text = std::move(jobs).value();
    snapshot.jobs_label = options.jobs_path;
  }
  std::string telemetry_notice;
  std::optional<telemetry::PodObservations> observed;
  if (!options.telemetry_dir.empty()) {
    Result<telemetry::PodObservations> read =
        telemetry::ReadTelemetryFolder(options.telemetry_dir, "--telemetry", &telemetry_notice);
    if (!read.ok()) return Fail(read.status(), kBadInput);
    observed = std::move(read).value();
    snapshot.telemetry = &*observed;
  }
  // After reading the inputs (so that --out is compared with them) and before importing.
  if (options.out != "-") {
    if (Status s = CheckOutputFile("--out", options.out); !s.ok()) return Fail(s, kBadInput);
  }
  Result<k8s::SnapshotScenario> imported = k8s::ImportSnapshot(
      nodes.value(), Label(options.nodes_path), pods.value(), Label(options.pods_path), snapshot);
  if (!imported.ok()) return Fail(imported.status(), kBadInput);
  std::vector<std::string> notices = imported.value().notices;
  if (!telemetry_notice.empty()) notices.insert(notices.begin(), telemetry_notice);
  // On stderr with --json too (as every command's warnings); the JSON repeats them.
  for (const std::string& w : imported.value().warnings) std::cerr << "warning: " << w << "\n";
  for (const std::string& n : notices) std::cerr << "import: " << n << "\n";
  if (options.out == "-") {
    std::cout << imported.value().json;
    return 0;
  }
  if (Status s = WriteFileAtomically(options.out, imported.value().json); !s.ok()) {
    return Fail(s, kInternalError);
  }
  if (options.json) {
    std::cout << FormatImportJson(
        {options.out, options.name, imported.value().warnings, std::move(notices)});
  }
  return 0;
}

}  // namespace migsim
