#include "sim/cli/job_classes_command.h"

#include <cstdio>

#include "sim/report/catalog_json.h"
#include "workloads/builtin_job_classes.h"

namespace migsim {

int JobClassesCommand(bool json) {
  if (json) {
    std::fputs(FormatJobClassesJson().c_str(), stdout);
    return 0;
  }
  for (const BuiltinJobClass& b : BuiltinJobClasses()) {
    const JobClass& jc = b.job_class;
    std::printf("%s  (work %g %s, start-up %g s, duty cycle %g)\n", jc.name.c_str(), jc.work,
                jc.work_unit.c_str(), jc.startup.seconds(), jc.duty_cycle);
    for (const auto& [kind, run] : jc.run_time) {
      std::printf("  %-24s %10.1f s alone  %10.2f %s/s\n", kind.c_str(), run.seconds(),
                  jc.work / run.seconds(), jc.work_unit.c_str());
    }
    std::printf("  source: %s\n\n", b.source.c_str());
  }
  return 0;
}

}  // namespace migsim
