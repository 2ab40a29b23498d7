#pragma once
// The inputs the fuzz targets feed to migsim's parsers, one per kind of input file, and
// what every parser must do with any text. The fuzzers (fuzzer.cc) abort on a broken
// promise; the test suite replays the committed corpora (tests/fuzz/).

#include <span>
#include <string>
#include <string_view>

namespace migsim::fuzz {

// Parses `text` as one kind of input file, touching no other file (NamedFiles::kRefused).
// Returns "" when the parser kept its promises: a value, or an error that names the file
// and is not an internal error (an exception a check should have prevented). Otherwise
// what it broke, with the error.
using ParseInput = std::string (*)(std::string_view text);

struct FuzzTarget {
  std::string_view name;  // the fuzzer is <name>_fuzzer, its corpus fuzz/corpus/<name>/
  ParseInput parse;
};

// scenario_json, sweep_json, plan_json, openb_nodes, openb_pods, pod_list_csv,
// measurements_csv, mig_parted_yaml, k8s_manifests, snapshot_import, dra_selector,
// prometheus_json.
std::span<const FuzzTarget> FuzzTargets();

// The target named `name`, or nullptr.
const FuzzTarget* FindFuzzTarget(std::string_view name);

}  // namespace migsim::fuzz
