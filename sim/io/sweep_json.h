#pragma once
// Sweep files: one scenario run over a grid of parameter values. A sweep names a scenario
// (a file or an inline object), axes (JSON pointer -> values, whose cartesian product
// gives points) and/or listed points; each point sets those pointers in the scenario's
// base document and is loaded as a scenario of its own. The format is in
// scenarios/README.md ("Sweep files").

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/named_files.h"
#include "workloads/scenario.h"

namespace migsim {

struct SweepPoint {
  size_t index = 0;  // product points first (the last axis varies fastest), then listed ones
  // One per SweepFile::columns: the compact JSON text of the value this point sets there,
  // or "" when the point does not set it (the scenario's own value applies).
  std::vector<std::string> values;
  // The patched scenario, validated, holding only the variants the sweep selects (in the
  // scenario's order): one run each.
  ScenarioFile scenario;
};

struct SweepFile {
  std::string path;
  std::string name;
  std::string description;
  // The scenario file, resolved against the sweep file's directory; the sweep's own path
  // when the scenario is inline.
  std::string scenario_path;
  // The pointers the points set: the axes in file order, then the pointers only listed
  // points set, in order of first appearance.
  std::vector<std::string> columns;
  std::vector<SweepPoint> points;

  size_t run_count() const;
};

// Reads a sweep file, expands its points and validates every one of them (so a bad point
// stops the sweep before anything runs).
//
// Errors (the first found), as Status::ToString():
//  - ReadInputFile's: "sweep.json: cannot read file: No such file or directory", ...; for
//    the scenario file the same after its pointer: "sweep.json:/scenario: x.json: cannot
//    read file: No such file or directory";
//  - "sweep.json:line 3, column 5: malformed JSON: ..." (likewise in the scenario file);
//  - the sweep's own fields at their pointer: "sweep.json:/axes/~1seed: must not be empty";
//  - a point that cannot be built or is not a valid scenario:
//    "sweep.json: point 3 (/cluster/nodes/p4d/count=0): scenario.json:/cluster/nodes/p4d/
//    count: must be >= 1" (the scenario's own error after the point's label; an inline
//    scenario's pointers start with /scenario in the sweep file).
Result<SweepFile> LoadSweepFile(const std::string& path);

// Same, from text; a relative scenario path is resolved against the directory of
// `file_label`. Under NamedFiles::kRefused the scenario must be inline, and reads no file.
Result<SweepFile> ParseSweepText(std::string_view text, const std::string& file_label,
                                 NamedFiles named_files = NamedFiles::kRead);

// "/cluster/nodes/p4d/count=2, /seed=1": the values a point sets, as in error messages.
std::string PointLabel(const SweepFile& sweep, const SweepPoint& point);

}  // namespace migsim
