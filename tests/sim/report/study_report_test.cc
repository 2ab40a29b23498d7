// The studies' HTML reports (sweep, plan, openb) drawn from their CSVs' text, the seed
// intervals they show, reading the CSVs back, and redrawing a report from a directory.

#include "sim/report/study_report.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/report/csv_table.h"
#include "sim/report/openb_report.h"
#include "sim/report/plan_study_report.h"
#include "sim/report/seed_interval.h"
#include "sim/report/sweep_csv.h"
#include "sim/report/sweep_report.h"
#include "sim/report/sweep_table.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string ReadSource(const std::string& path) {
  std::ifstream in(std::string(MIGSIM_SOURCE_DIR) + "/" + path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Two variants over /x = 1, 2 and three seeds each: p95 = x * 10 + seed.
SweepResults SeedSweep() {
  SweepResults results{.columns = {"/x", "/seed"}, .rows = {}};
  size_t point = 0;
  for (int x : {1, 2}) {
    for (int seed : {1, 2, 3}) {
      for (const char* variant : {"a", "b"}) {
        SweepRow row;
        row.point = point;
        row.values = {std::to_string(x), std::to_string(seed)};
        row.variant = variant;
        row.p95_s = x * 10 + seed + (variant[0] == 'b' ? 100 : 0);
        row.completed = 3;
        results.rows.push_back(row);
      }
      ++point;
    }
  }
  return results;
}

}  // namespace

TEST_CASE("the t quantiles are Student's at 97.5 %, from the table and beyond it", "[intervals]") {
  CHECK(StudentT975(1) == Approx(12.706205).epsilon(1e-7));
  CHECK(StudentT975(3) == Approx(3.182446).epsilon(1e-7));
  CHECK(StudentT975(30) == Approx(2.042272).epsilon(1e-7));
  CHECK(StudentT975(31) == Approx(2.039513).margin(2e-6));  // the expansion, past the table
  CHECK(StudentT975(199) == Approx(1.971957).margin(2e-6));
  CHECK(StudentT975(100000) == Approx(1.959988).margin(1e-6));  // z + (z^3 + z) / 4v
}

TEST_CASE("a seed interval is the mean plus or minus t times s over root n", "[intervals]") {
  // 1, 2, 3, 4: mean 2.5, s = sqrt(5/3) = 1.290994, t(0.975, 3) = 3.182446:
  // half-width 3.182446 x 1.290994 / 2 = 2.054260.
  const SeedInterval i = ComputeSeedInterval({1, 2, 3, 4});
  CHECK(i.n == 4);
  CHECK(i.mean == 2.5);
  CHECK(i.half_width == Approx(2.054260).margin(1e-6));
  CHECK(i.min == 1);
  CHECK(i.max == 4);
  CHECK(FormatSeedInterval(i, 2) == "2.50 \u00b12.05");
  // Two seeds: s = sqrt(2), half-width 12.706205 x sqrt(2) / sqrt(2).
  CHECK(ComputeSeedInterval({10, 12}).half_width == Approx(12.706205));
  CHECK(ComputeSeedInterval({7}).half_width == 0);
  CHECK(FormatSeedInterval(ComputeSeedInterval({7}), 1) == "7.0");
  CHECK(ComputeSeedInterval({}).n == 0);
}

TEST_CASE("the sweep table adds the mean and interval over the seeds of each point",
          "[intervals]") {
  const std::string table = FormatSweepTable(SeedSweep());
  CHECK_THAT(table, Catch::Contains("mean \u00b1 95 % confidence interval over the seeds"));
  // x = 1, variant a: p95 11, 12, 13 -> 12.0 ±2.5 (s = 1, t(2) = 4.302653 / sqrt 3).
  CHECK_THAT(table, Catch::Contains("1  a            3             -         12.0 \u00b12.5"));
  CHECK_THAT(table, Catch::Contains("2  b            3             -        122.0 \u00b12.5"));
}

TEST_CASE("a sweep CSV from before the run table's columns is refused, saying why", "[sweep]") {
  std::string csv = FormatSweepCsv(SeedSweep());
  const size_t cut = csv.find(",queueing_mean_s");
  const std::string old_header = csv.substr(0, cut) + "\n";
  CHECK(ParseSweepCsv(old_header, "old.csv").status().ToString() ==
        "old.csv:line 1: written by an earlier migsim, without the columns queueing_mean_s ... "
        "cost_usd: run the sweep (or its shards) again with this version");
}

TEST_CASE("the sweep report draws a line per variant against the axis, with the seed band",
          "[study-report]") {
  Result<std::string> html = SweepReportHtml(FormatSweepCsv(SeedSweep()), "sweep.csv");
  REQUIRE(html.ok());
  const std::string& page = html.value();
  CHECK_THAT(page, Catch::Contains("default-src 'none'"));
  CHECK(Count(page, "<script") == 0);
  CHECK_THAT(page, Catch::Contains("<h2>Against x</h2>"));
  CHECK_THAT(page, Catch::Contains("3 seeds each"));
  // p95 varies, the other metrics do not: one chart, a line and a band per variant.
  CHECK(Count(page, "<svg") == 1);
  CHECK(Count(page, "<polyline") == 2);
  CHECK(Count(page, "class=\"band\"") == 2);
  CHECK_THAT(page, Catch::Contains("<title>a</title></polyline>"));
  CHECK_THAT(page, Catch::Contains("<td class=\"n\">12.000 \u00b12.484</td>"));
  CHECK(Count(page, "<tr>") == 1 + 4 + 1 + 12);  // means table and runs table
  CHECK(SweepReportHtml("point,variant\n", "d/sweep.csv")
            .status()
            .ToString()
            .starts_with("d/sweep.csv:line 1: not a sweep CSV"));
}

TEST_CASE("the openb report draws allocation against arrived demand per policy with its band",
          "[study-report]") {
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* name : {"alloc_discrete.csv", "frag_discrete.csv", "final_state.csv",
                           "failed_pods.csv", "mig_placed_discrete.csv"}) {
    files.emplace_back(name, ReadSource(std::string("tests/golden/expected/openb-small/") + name));
  }
  Result<std::string> html = OpenbReportFromFiles(files, "");
  REQUIRE(html.ok());
  const std::string& page = html.value();
  CHECK_THAT(page, Catch::Contains("openb_pod_list_small: GPU allocation against arrived demand"));
  // Allocation, fragmentation, MIG: a chart each, a line per policy (6, 6) or MIG variant (8).
  CHECK(Count(page, "<svg") == 3);
  CHECK(Count(page, "<polyline") == 6 + 6 + 8);
  CHECK(Count(page, "class=\"band\"") >= 4);
  CHECK_THAT(page, Catch::Contains("<title>random (2 seeds)</title></polyline>"));
  CHECK_THAT(page, Catch::Contains("<title>dot-product (2 seeds)</title></polyline>"));
  // random's CPU %: 68.52 and 73.39, mean 70.955, half-width 12.706205 x 4.87 / 2 = 30.94.
  CHECK_THAT(page, Catch::Contains("<td>openb_pod_list_small</td><td>random</td><td class=\"n\">2"
                                   "</td><td class=\"n\">70.95 \u00b130.94</td>"));
  files.erase(files.begin() + 2);
  CHECK(OpenbReportFromFiles(files, "out").status().ToString() ==
        "out/final_state.csv: missing: an openb study's report needs it");
  files.emplace_back("final_state.csv", "workload,sc_policy,seed\nx,y\n");
  CHECK(OpenbReportFromFiles(files, "out").status().ToString() ==
        "out/final_state.csv:line 1: no column milli_cpu_pct in the header");
}

TEST_CASE("the plan report draws the objectives as thresholds and rings the recommendation",
          "[study-report]") {
  const std::string plan =
      "configuration,nodes,node_type,cost_per_hour,cost_per_month,p95_queueing_latency_s,"
      "longest_wait_s,pods_never_bound,makespan_s,gpu_allocation_ratio,gpu_compute_utilization,"
      "evaluations,note,pools,energy_kwh,energy_cost\n"
      "small,2,g5.xlarge,2.0000,1460.00,50,60,0,100,0.5,0.4,2,,gpu:2:g5.xlarge:varied:2.0000:,"
      "1,0.1\n"
      "big,,p4d.24xlarge,,,,,,,,,2,\"misses\",,,\n";
  std::string evidence =
      "configuration,nodes,seed,meets,why_not,cost_per_hour,makespan_s,queueing_p95_s,"
      "queueing_mean_s,queueing_max_s,gpu_allocation_ratio,gpu_compute_utilization,"
      "pods_submitted,pods_completed,pods_failed,pods_running,pods_pending,pods_deleted,"
      "restarts,pods_deleted_unbound,pods_never_bound,longest_wait_s,pending_peak,"
      "pending_mean,energy_kwh,energy_cost,co2_kg\n";
  for (const char* row :
       {"small,1,1,false,x,1,100,150,1,1,0.5,0.5,10,10,0,0,0,0,0,0,0,1,1,1,1,1,1",
        "small,1,2,false,x,1,100,170,1,1,0.5,0.5,10,10,0,0,0,0,0,0,0,1,1,1,1,1,1",
        "small,2,1,true,,2,100,40,1,1,0.5,0.5,10,10,0,0,0,0,0,0,0,1,1,1,1,1,1",
        "small,2,2,true,,2,100,60,1,1,0.5,0.5,10,10,0,0,0,0,0,0,0,1,1,1,1,1,1",
        "big,1,1,false,x,30,100,900,1,1,0.5,0.5,10,8,0,0,0,0,0,0,0,1,1,1,1,1,1",
        "big,1,2,false,x,30,100,950,1,1,0.5,0.5,10,8,0,0,0,0,0,0,0,1,1,1,1,1,1"}) {
    evidence += std::string(row) + "\n";
  }
  const std::string objectives =
      "objective,threshold\np95_queueing_latency_s,120\n"
      "min_completed_fraction,0.9\n";
  std::vector<std::pair<std::string, std::string>> files = {
      {"plan.csv", plan}, {"evidence.csv", evidence}, {"objectives.csv", objectives}};
  Result<std::string> html = PlanReportFromFiles(files, "");
  REQUIRE(html.ok());
  const std::string& page = html.value();
  // Two objectives, cost and energy: four charts of two configurations each.
  CHECK(Count(page, "<svg") == 4);
  CHECK(Count(page, "<polyline") == 8);
  CHECK(Count(page, "class=\"threshold\"") == 2);
  CHECK_THAT(page, Catch::Contains("p95_queueing_latency_s &lt;= 120"));
  CHECK_THAT(page, Catch::Contains("min_completed_fraction &gt;= 0.9"));
  CHECK(Count(page, "class=\"mark\"") == 4);
  CHECK_THAT(page, Catch::Contains("recommended: small"));
  CHECK_THAT(page, Catch::Contains("recommendation: small with 2 \u00d7 g5.xlarge at $2.0000/h"));
  CHECK_THAT(page, Catch::Contains("<tr class=\"best\"><td>small</td>"));
  files[1].second = evidence + "small,x,1\n";
  CHECK(PlanReportFromFiles(files, "out").status().ToString() ==
        "out/evidence.csv:line 8: expected 27 fields, got 3");
  files[1].second = evidence;
  files.pop_back();
  CHECK(PlanReportFromFiles(files, "out").status().ToString() ==
        "out/objectives.csv: missing: a plan's report needs it");
}

TEST_CASE("a study's report is redrawn from its directory, which must hold one study",
          "[study-report]") {
  test::ScratchDir dir("study-report");
  const std::string csv = FormatSweepCsv(SeedSweep());
  CHECK(RedrawStudyReport(dir.Path("none")).status().ToString() ==
        dir.Path("none") + ": not a directory: give the --out directory of a study");
  CHECK(RedrawStudyReport(dir.path().string())
            .status()
            .ToString()
            .ends_with(
                "holds no study's files: sweep.csv (migsim sweep --out, migsim merge), plan.csv "
                "(migsim plan --out) or alloc_discrete.csv (migsim openb --out)"));
  dir.Write("sweep-shard-0-of-2.csv", "x");
  CHECK(RedrawStudyReport(dir.path().string())
            .status()
            .ToString()
            .ends_with("holds sweep shards but no sweep.csv: merge them first (migsim merge DIR)"));
  dir.Write("sweep.csv", csv);
  Result<StudyReport> redrawn = RedrawStudyReport(dir.path().string());
  REQUIRE(redrawn.ok());
  CHECK(redrawn.value().study == "sweep");
  CHECK(redrawn.value().html == SweepReportHtml(csv, "sweep.csv").value());
  dir.Write("plan.csv", "configuration\n");
  CHECK(RedrawStudyReport(dir.path().string())
            .status()
            .ToString()
            .ends_with("holds the files of more than one study (sweep.csv, plan.csv): give each "
                       "study its own "
                       "--out directory"));
}

TEST_CASE("a CSV table names the file and line of a bad row or cell", "[study-report]") {
  Result<CsvTable> t = ReadCsvTable("a,b\n1,2\n\n\"3\",x\n", "f.csv", {"a"});
  REQUIRE(t.ok());
  CHECK(t.value().rows.size() == 2);
  CHECK(t.value().lines[1] == 4);
  CHECK(CsvNumber(t.value(), 0, "b", "f.csv").value() == 2);
  CHECK(CsvNumber(t.value(), 1, "b", "f.csv").status().ToString() ==
        "f.csv:line 4: b: not a number: 'x'");
  CHECK(ReadCsvTable("a,b\n1\n", "f.csv", {}).status().ToString() ==
        "f.csv:line 2: expected 2 fields, got 1");
  CHECK(ReadCsvTable("a\n", "f.csv", {"b"}).status().ToString() ==
        "f.csv:line 1: no column b in the header");
  CHECK(ReadCsvTable("", "f.csv", {}).status().ToString() ==
        "f.csv:line 1: empty file: expected a CSV header");
}

}  // namespace migsim
