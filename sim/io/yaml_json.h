#pragma once
// Internal to sim/io: a YAML scenario file read into the JSON tree the scenario loader reads,
// with the line of every value, so that an error at a JSON pointer names the YAML line too.
//
// YAML's scalars are untyped text; they become JSON values by YAML 1.2's core schema, as a
// JSON document would have written them:
//  - a quoted scalar ('1', "true") and one tagged !!str is a string;
//  - a plain scalar is null when it is empty, ~, null, Null or NULL; a boolean when it is
//    true, True, TRUE, false, False or FALSE; an integer when it is [-+]?[0-9]+, 0o[0-7]+ or
//    0x[0-9a-fA-F]+; a number when it is [-+]?(.[0-9]+|[0-9]+(.[0-9]*)?)([eE][-+]?[0-9]+)?;
//    otherwise a string (yes, no, on, off are strings: YAML 1.1's booleans are not 1.2's).
//    .inf and .nan are numbers JSON cannot hold: an error at their line.
//  - mapping keys are strings (a key that is a mapping or a sequence is an error); a key
//    given twice in one mapping is an error, as in a JSON scenario.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/json_reader.h"

namespace migsim::io {

struct YamlJson {
  Json doc;
  // (JSON pointer, 1-based line) of every value, in document order.
  std::vector<std::pair<std::string, int>> lines;

  // The line of the value at `pointer`, or of the deepest value holding it (a missing member
  // is reported at its object); 0 when there is none.
  int LineOf(std::string_view pointer) const;
};

// The one YAML document of `text` as JSON. A text whose first document is a mapping with
// apiVersion and kind is a Kubernetes manifest, not a scenario: an InvalidArgument that says
// where manifests go. Other errors: LoadYamlDocuments' ParseError "malformed
// YAML" at "line L, column C"; InvalidArgument at "<file_label>:<line>" for a text with no
// document or more than one, a key that is not a scalar, a repeated key, a non-finite number,
// nesting deeper than JsonParseChecks::kMaxDepth, and aliases that expand to more than
// InputLimits::yaml_nodes values.
Result<YamlJson> ParseYamlAsJson(std::string_view text, const std::string& file_label);

// Whether `path` names a YAML file (.yaml, .yml).
bool IsYamlPath(std::string_view path);

// The document of a scenario file's text, as the sweep and plan loaders read the scenario
// they name: ParseYamlAsJson's for a YAML `file_label`, else ParseJson's.
Result<Json> ParseScenarioDocument(std::string_view text, const std::string& file_label);

}  // namespace migsim::io
