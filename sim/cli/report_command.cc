#include "sim/cli/report_command.h"

#include <cstdio>

#include "sim/cli/failure.h"
#include "sim/report/output_dir.h"
#include "sim/report/study_report.h"

namespace migsim {

int ReportCommand(const ReportOptions& options) {
  Result<StudyReport> report = RedrawStudyReport(options.dir);
  if (!report.ok()) return Fail(report.status(), kBadInput);
  // Checked once the study's files are read, so that the report cannot replace one of them.
  const std::string out = options.out.empty() ? options.dir + "/report.html" : options.out;
  if (Status s = CheckOutputFile("--out", out); !s.ok()) return Fail(s, kBadInput);
  if (Status s = CheckOutputTargets({{"--out", out}}); !s.ok()) return Fail(s, kBadInput);
  if (Status s = WriteFileAtomically(out, report.value().html); !s.ok()) {
    return Fail(s, kInternalError);
  }
  std::printf("%s: the %s report\n", out.c_str(), report.value().study.c_str());
  return 0;
}

}  // namespace migsim
