#pragma once
// Scenario files: one JSON document describing a cluster, its workloads, job classes, a
// policy and variants (JSON Merge Patches of the rest). The format, field by field, is
// in scenarios/README.md.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/named_files.h"
#include "workloads/scenario.h"

namespace migsim {

// What a load is given besides the file.
struct ScenarioLoadOptions {
  // Kubernetes manifest files or directories added to the scenario's `manifests`, given as
  // they are (e.g. on the command line).
  std::vector<std::string> extra_manifests{};
  // Replaces the `seed` of the base document and of every variant (a variant's own `seed`
  // included) before anything is read, so that every draw of every variant, those made
  // while loading (an Arrivals workload's arrivals) as well as the run's, comes from it:
  // what `migsim run --seed`, `migsim.run(seed=)`, a plan's seeds and a sweep's `/seed`
  // axis do. Unset: each variant's seed is the document's.
  std::optional<uint64_t> seed{};
};

// Reads and validates a scenario file: every variant is built and checked before anything
// runs, so a bad variant stops the load rather than a run halfway through a sweep.
//
// Errors (the first one found is returned):
//  - ReadInputFile's (sim/io/input_file.h) when the file cannot be read: "cannot read
//    file: <reason>", "not a regular file (...)", too large, not UTF-8;
//  - ParseError "malformed JSON: ..." located at "line L, column C";
//  - InvalidArgument located at the JSON pointer of the offending element. For an error
//    that only a variant has, the message starts with "variant '<name>': " and the
//    pointer is into the merged document (the same shape as the file without variants).
//  - for manifests (the scenario's `manifests`, and `options.extra_manifests`),
//    InvalidArgument at the manifest file, "document N: <YAML path> (line L): <problem>",
//    or ParseError "malformed YAML" at its line and column (sim/io/k8s/manifest_objects.h).
// What manifests say that migsim does not model goes to ScenarioFile::warnings.
Result<ScenarioFile> LoadScenarioFile(const std::string& path,
                                      const ScenarioLoadOptions& options = {});

// Same, from text; `file_label` is used in messages and as ScenarioFile::path. For tests;
// the files the text names (and its manifests) are read unless `named_files` refuses them
// (named_files.h).
Result<ScenarioFile> ParseScenarioText(std::string_view text, const std::string& file_label,
                                       NamedFiles named_files = NamedFiles::kRead,
                                       const ScenarioLoadOptions& options = {});

}  // namespace migsim
