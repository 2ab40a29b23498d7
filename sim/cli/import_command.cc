#include "sim/cli/import_command.h"

#include <iostream>

#include "sim/cli/failure.h"
#include "sim/io/input_file.h"
#include "sim/io/k8s/snapshot_import.h"
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
  Result<std::string> nodes = ReadInput(options.nodes_path);
  if (!nodes.ok()) return Fail(nodes.status(), kBadInput);
  Result<std::string> pods = ReadInput(options.pods_path);
  if (!pods.ok()) return Fail(pods.status(), kBadInput);
  // After reading the inputs (so that --out is compared with them) and before importing.
  if (options.out != "-") {
    if (Status s = CheckOutputFile("--out", options.out); !s.ok()) return Fail(s, kBadInput);
  }
  const k8s::SnapshotOptions snapshot{options.name, options.run_s, options.horizon_s};
  Result<k8s::SnapshotScenario> imported =
      k8s::ImportSnapshot(nodes.value(), Label(options.nodes_path), pods.value(),
                          Label(options.pods_path), snapshot);
  if (!imported.ok()) return Fail(imported.status(), kBadInput);
  for (const std::string& w : imported.value().warnings) std::cerr << "warning: " << w << "\n";
  for (const std::string& n : imported.value().notices) std::cerr << "import: " << n << "\n";
  if (options.out == "-") {
    std::cout << imported.value().json;
    return 0;
  }
  if (Status s = WriteFileAtomically(options.out, imported.value().json); !s.ok()) {
    return Fail(s, kInternalError);
  }
  return 0;
}

}  // namespace migsim
