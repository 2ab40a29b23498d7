#pragma once
// The HTML report of the openb fill experiment (`migsim openb --report`, `migsim report
// DIR`), drawn from the text of the CSVs `migsim openb --out` writes: per trace, the ATC'23
// figure (allocated GPUs against arrived GPU demand, one line per policy through the mean
// over the seeds, their min-max range as a band) and the fragmentation curve; the end-of-run
// state and the failed pods as tables, mean and 95 % interval over the seeds; the
// MIG edition's placed curve when its CSV is there.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// A CSV's text and the path errors name.
struct CsvText {
  std::string path;
  std::string text;
};

struct OpenbReportInputs {
  CsvText alloc, frag, final_state, failed;  // alloc_discrete.csv, frag_discrete.csv, ...
  std::optional<CsvText> mig_placed;         // mig_placed_discrete.csv (--mig)
};

// InvalidArgument at "<path>: line N" when a file is not what `migsim openb` writes.
Result<std::string> OpenbReportHtml(const OpenbReportInputs& inputs);

// The same from (file name, text) pairs named as `migsim openb --out` names its files, the
// paths in errors being `dir`/name (the name alone when `dir` is empty). InvalidArgument
// naming a required file (all but the MIG edition's) that is missing.
Result<std::string> OpenbReportFromFiles(
    const std::vector<std::pair<std::string, std::string>>& files, const std::string& dir);

}  // namespace migsim
