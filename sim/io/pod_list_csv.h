#pragma once
// A pod list: the generic trace a workload of kind "Trace" replays with `pods` (see
// scenarios/README.md). One pod per record, in any order:
//
//   at_s,template,run_s,name
//   0,small,120,job-a
//   2.5,large,,job-b          (no run_s: the template's job class decides the run time)
//
// Columns are found by header name: `at_s` (creation time, seconds >= 0) and `template`
// (a name, not empty) are required; `run_s` (seconds >= 0, or empty) and `name` (empty:
// a generated one) are optional; any other column is an error, so a misspelt optional
// column is not silently ignored. The CSV conventions are csv_lines.h's; errors name
// {file, "line N"}.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

struct PodListRow {
  int line = 0;  // where the record is in its file, counted from 1
  double at_s = 0;
  std::string tmpl;
  std::optional<double> run_s;
  std::string name;  // empty: none given
};

Result<std::vector<PodListRow>> ParsePodList(std::string_view text, const std::string& file);
Result<std::vector<PodListRow>> LoadPodList(const std::string& path);

// A number of seconds as the pod list writes it: a finite decimal number in
// [0, max_seconds] ("12", "0.5", "1e3"). InvalidArgument naming `column` otherwise.
Status ParseCsvSeconds(std::string_view column, std::string_view field, double max_seconds,
                       double* out);

}  // namespace migsim
