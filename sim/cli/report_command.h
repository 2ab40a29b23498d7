#pragma once
// `migsim report DIR [--out FILE]`: redraw a finished study's HTML report from the files in
// its --out directory (study_report.h), without running it again.

#include <string>

namespace migsim {

struct ReportOptions {
  std::string dir;
  std::string out;  // default: DIR/report.html
};

// Exit code: 0 success; 2 bad input (no study's files, a missing or malformed file: one
// message naming the file and line, nothing written); 1 when the report cannot be written.
int ReportCommand(const ReportOptions& options);

}  // namespace migsim
