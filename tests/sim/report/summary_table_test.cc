// The summary table's optional rows and notes.

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "sim/report/run_report.h"

namespace migsim {
namespace {

// The cells of the table's row `label`, single-spaced ("" when there is no such row).
std::string Cells(const std::string& table, const std::string& label) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(label + "  ", 0) != 0) continue;
    std::istringstream words(line.substr(label.size()));
    std::string cells;
    for (std::string w; words >> w;) cells += (cells.empty() ? "" : " ") + w;
    return cells;
  }
  return "";
}

TEST_CASE("the table has gang rows only when a variant has gangs, and names those never run",
          "[report][gang]") {
  ScenarioFile file;
  file.name = "s";
  RunReport report{.file = &file, .variants = {}};
  VariantResult plain;
  plain.name = "plain";
  report.variants.push_back(plain);
  CHECK_THAT(FormatSummaryTable(report), !Catch::Contains("gang"));

  VariantResult gangs;
  gangs.name = "gangs";
  GangMetrics g;
  g.gangs = 2;
  g.never_scheduled = 1;
  g.waiting = 1;
  g.timeouts = 3;
  g.wait.mean_s = 12.5;
  g.wait.max_s = 20;
  g.never_scheduled_owners = {"DistributedJob/big"};
  gangs.gangs = g;
  report.variants.push_back(gangs);
  const std::string table = FormatSummaryTable(report);
  CHECK(Cells(table, "gangs") == "- 2");
  CHECK(Cells(table, "gangs never scheduled") == "- 1");
  CHECK(Cells(table, "gangs waiting at the end") == "- 1");
  CHECK(Cells(table, "gang wait mean (s)") == "- 12.5");
  CHECK(Cells(table, "gang wait max (s)") == "- 20.0");
  CHECK(Cells(table, "gang reservation timeouts") == "- 3");
  CHECK_THAT(table, Catch::Contains("gangs never scheduled: DistributedJob/big (gangs)\n"));
}

}  // namespace
}  // namespace migsim
