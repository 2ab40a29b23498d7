#pragma once
// Scenario files: one JSON document describing a cluster, its workloads, job classes, a
// policy and variants (JSON Merge Patches of the rest). The format, field by field, is
// in scenarios/README.md.

#include <string>
#include <string_view>

#include "sim/core/status.h"
#include "sim/io/named_files.h"
#include "workloads/scenario.h"

namespace migsim {

// Reads and validates a scenario file: every variant is built and checked before anything
// runs, so a bad variant stops the load rather than a run halfway through a sweep.
//
// Errors (the first one found is returned):
//  - IoError "cannot read file: <reason>" located at `path`;
//  - ParseError "malformed JSON: ..." located at "line L, column C";
//  - InvalidArgument located at the JSON pointer of the offending element. For an error
//    that only a variant has, the message starts with "variant '<name>': " and the
//    pointer is into the merged document (the same shape as the file without variants).
Result<ScenarioFile> LoadScenarioFile(const std::string& path);

// Same, from text; `file_label` is used in messages and as ScenarioFile::path. For tests;
// the files the text names are read unless `named_files` refuses them (named_files.h).
Result<ScenarioFile> ParseScenarioText(std::string_view text, const std::string& file_label,
                                       NamedFiles named_files = NamedFiles::kRead);

}  // namespace migsim
