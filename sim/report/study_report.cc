#include "sim/report/study_report.h"

#include <filesystem>
#include <utility>
#include <vector>

#include "sim/io/input_file.h"
#include "sim/report/openb_report.h"
#include "sim/report/plan_study_report.h"
#include "sim/report/sweep_report.h"
#include "sim/study/sweep/sweep_shard.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

// Each study by the file that marks it, and the files its report reads.
struct Study {
  const char* name;
  const char* marker;
  std::vector<const char*> files;
};

const Study kStudies[] = {{"sweep", "sweep.csv", {"sweep.csv"}},
                          {"plan", "plan.csv", {"plan.csv", "evidence.csv", "objectives.csv"}},
                          {"openb",
                           "alloc_discrete.csv",
                           {"alloc_discrete.csv", "frag_discrete.csv", "frag_ratio_discrete.csv",
                            "failed_pods.csv", "final_state.csv", "mig_placed_discrete.csv",
                            "mig_slices_discrete.csv", "mig_frag_discrete.csv"}}};

bool Exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

bool HasShards(const std::string& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    if (ShardOfCsvName(it->path().filename().string())) return true;
  }
  return false;
}

}  // namespace

Result<StudyReport> RedrawStudyReport(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Status::InvalidArgument("not a directory: give the --out directory of a study",
                                   {dir, ""});
  }
  std::vector<const Study*> found;
  for (const Study& s : kStudies) {
    if (Exists(dir + "/" + s.marker)) found.push_back(&s);
  }
  if (found.empty()) {
    return Status::InvalidArgument(
        HasShards(dir)
            ? "holds sweep shards but no sweep.csv: merge them first (migsim merge DIR)"
            : "holds no study's files: sweep.csv (migsim sweep --out, migsim merge), plan.csv "
              "(migsim plan --out) or alloc_discrete.csv (migsim openb --out)",
        {dir, ""});
  }
  if (found.size() > 1) {
    return Status::InvalidArgument(std::string("holds the files of more than one study (") +
                                       found[0]->marker + ", " + found[1]->marker +
                                       "): give each study its own --out directory",
                                   {dir, ""});
  }
  const Study& study = *found[0];
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* name : study.files) {
    const std::string path = dir + "/" + name;
    if (!Exists(path)) continue;  // the report names the ones it needs
    Result<std::string> text = ReadInputFile(path);
    if (!text.ok()) return text.status();
    files.emplace_back(name, std::move(text).value());
  }
  const std::string name = study.name;
  Result<std::string> html = name == "sweep"  ? SweepReportHtml(files[0].second, dir + "/sweep.csv")
                             : name == "plan" ? PlanReportFromFiles(files, dir)
                                              : OpenbReportFromFiles(files, dir);
  if (!html.ok()) return html.status();
  return StudyReport{study.name, std::move(html).value()};
}

}  // namespace migsim
