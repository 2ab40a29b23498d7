#pragma once
// Redrawing a finished study's HTML report from the files in its --out directory
// (`migsim report DIR`), without running it again: the study is told by its files —
// sweep.csv (`migsim sweep --out`, or `migsim merge` of shards), plan.csv with evidence.csv
// and objectives.csv (`migsim plan --out`), alloc_discrete.csv with the other fill CSVs
// (`migsim openb --out`) — and the report is byte for byte the one the study wrote.

#include <string>

#include "sim/core/status.h"

namespace migsim {

struct StudyReport {
  std::string study;  // "sweep", "plan" or "openb"
  std::string html;
};

// Reads the study's files in `dir` (ReadInputFile, so that the report's target can be
// checked against them) and draws its report. InvalidArgument naming the directory when it
// holds no study's files, or the files of more than one, or only unmerged shards; naming
// the file and line when a file is missing or malformed; IoError when one cannot be read.
Result<StudyReport> RedrawStudyReport(const std::string& dir);

}  // namespace migsim
