// Sweep results as CSV and as a table, and merging the shards' CSVs back into what an
// unsharded run writes.

#include "sim/report/sweep_csv.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/report/output_dir.h"
#include "sim/report/sweep_merge.h"
#include "sim/report/sweep_table.h"
#include "sim/study/sweep/sweep_run.h"
#include "tests/support/sweep_files.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

using test::kSmallSweep;
using test::LoadSweep;
using test::SweepTempDir;
using test::SweepThreads;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("a sweep CSV reads back to the same rows, quoting JSON strings", "[sweep]") {
  SweepResults results{.columns = {"/a,b", "/p"}, .rows = {}};
  SweepRow row;
  row.point = 3;
  row.values = {"\"x,y\"", ""};
  row.variant = "v";
  row.p95_s = 1.25;
  row.cost_per_hour = RoundToMicro(21.9576 * 3);
  results.rows.push_back(row);
  SweepRow faulty = row;  // a run with faults and preemptions
  faulty.point = 4;
  faulty.preemptions = 6;
  faulty.gpu_hours_lost_to_preemption = 0.1;
  faulty.faults = 17;
  faulty.gpu_hours_lost_to_faults = 49.25;
  faulty.goodput = 0.996;
  faulty.deleted_unbound = 28;  // a service's replicas deleted unbound at the scale-down
  faulty.never_bound = 30;
  faulty.longest_wait_s = 37845;
  faulty.pending_peak = 28;
  faulty.pending_mean = 9.5;
  faulty.energy_kwh = 12.5;  // energy, read back too
  faulty.gpu_kwh = 10;
  faulty.allocated_idle_kwh = 0.25;
  faulty.node_kwh = 2.5;
  faulty.energy_cost = 1.825;
  faulty.co2_kg = 4.575;
  faulty.queueing_mean_s = 3.5;  // the run table's figures, read back too
  faulty.submitted = 40;
  faulty.restarts = 2;
  faulty.run_time_mean_s = 100;
  faulty.jobs_completed = 5;
  faulty.jobs_failed = 1;
  faulty.jct_mean_s = 200;
  faulty.jct_p95_s = 300;
  faulty.slowdown_mean = 1.5;
  faulty.gpu_hours = 8.25;
  faulty.jain_index = 0.9;
  faulty.policy_decisions = 45;
  faulty.rejected_decisions = 3;
  results.rows.push_back(faulty);
  const std::string csv = FormatSweepCsv(results);
  CHECK_THAT(csv, Catch::Contains("\n3,\"\"\"x,y\"\"\",,v,,0.000000,1.250000,"));
  CHECK_THAT(csv, Catch::StartsWith("point,\"/a,b\",/p,variant,"));
  Result<SweepCsv> back = ParseSweepCsv(csv, "x.csv");
  REQUIRE(back.ok());
  CHECK(back.value().results.columns == results.columns);
  CHECK(back.value().results.rows[0].values == row.values);
  CHECK_FALSE(back.value().results.rows[0].makespan_s);
  CHECK_FALSE(back.value().results.rows[0].goodput);
  CHECK_THAT(csv, Catch::EndsWith(",65.872800,6,0.100000,17,49.250000,0.996000,28,30,"
                                  "37845.000000,28,9.500000,12.500000,10.000000,0.250000,"
                                  "2.500000,1.825000,4.575000,3.500000,40,2,100.000000,5,1,0,"
                                  "200.000000,,300.000000,,1.500000,,,,8.250000,0.900000,45,3,,"
                                  "\n"));
  const SweepRow& faulty_back = back.value().results.rows[1];
  CHECK(faulty_back.preemptions == 6);
  CHECK(faulty_back.faults == 17);
  CHECK(faulty_back.gpu_hours_lost_to_faults == 49.25);
  CHECK(faulty_back.goodput == 0.996);
  CHECK(faulty_back.deleted_unbound == 28);
  CHECK(faulty_back.never_bound == 30);
  CHECK(faulty_back.longest_wait_s == 37845);
  CHECK(faulty_back.pending_peak == 28);
  CHECK(faulty_back.pending_mean == 9.5);
  CHECK(faulty_back.energy_kwh == 12.5);
  CHECK(faulty_back.allocated_idle_kwh == 0.25);
  CHECK(faulty_back.co2_kg == 4.575);
  CHECK(faulty_back.queueing_mean_s == 3.5);
  CHECK(faulty_back.jct_mean_s == 200);
  CHECK_FALSE(faulty_back.jct_p50_s);
  CHECK(faulty_back.jain_index == 0.9);
  CHECK(faulty_back.rejected_decisions == 3);
  CHECK_FALSE(faulty_back.cost_usd);
  CHECK_THAT(FormatSweepTable(results), Catch::Contains("goodput"));
  CHECK_THAT(FormatSweepTable(results), Catch::Contains("never bound  longest wait (s)"));
  CHECK_THAT(FormatSweepTable(results),
             Catch::EndsWith("30           37845.0        12.500        1.82      4.58\n"));
  CHECK(FormatSweepCsv(back.value().results) == csv);
  CHECK(FormatSweepTable(back.value().results) == FormatSweepTable(results));
  CHECK(ParseSweepCsv("point,variant\n", "x.csv").status().ToString() ==
        "x.csv:line 1: not a sweep CSV: expected the header point,<pointers...>,variant,"
        "makespan_s,...,co2_kg,queueing_mean_s,...,cost_usd");
  CHECK(ParseSweepCsv(csv + "4,1\n", "x.csv").status().ToString() ==
        "x.csv:line 4: expected 54 fields, got 2");
}

TEST_CASE("the table shortens pointers to their last tokens while they stay distinct", "[sweep]") {
  const SweepResults results{.columns = {"/a/b/c", "/x/b/c", "/seed", "/a/d~1e"}, .rows = {}};
  CHECK(FormatSweepTable(results) ==
        "point  a/b/c  x/b/c  seed  a/d~1e  variant  makespan (s)  p95 queueing (s)  "
        "GPU allocation  GPU utilization  completed  failed  pending  cost ($/h)  energy (kWh)  "
        "energy ($)  CO2 (kg)\n");
}

TEST_CASE("three shards merged are byte-identical to the unsharded sweep.csv", "[sweep]") {
  const SweepFile sweep = LoadSweep(kSmallSweep);
  const fs::path whole = SweepTempDir("whole"), shards = SweepTempDir("shards");
  REQUIRE(WriteFiles(whole.string(), {{SweepCsvName(std::nullopt),
                                       FormatSweepCsv(RunSweep(sweep, SweepThreads(2)))}})
              .ok());
  for (int i = 0; i < 3; ++i) {
    const Shard shard{i, 3};
    const SweepResults part = RunSweep(sweep, SweepThreads(2, shard));
    for (const SweepRow& row : part.rows) CHECK(row.point % 3 == static_cast<size_t>(i));
    const std::string csv =
        FormatSweepShardCsv(part, shard, sweep.points.size(), SweepDefinitionDigest(sweep, {}));
    REQUIRE(WriteFiles(shards.string(), {{SweepCsvName(shard), csv}}).ok());
  }
  Result<MergedSweep> merged = MergeSweepShardFiles({shards.string()});
  REQUIRE(merged.ok());
  const std::string expected = ReadFile(whole / "sweep.csv");
  CHECK(merged.value().csv == expected);
  CHECK(FormatSweepTable(merged.value().results) ==
        FormatSweepTable(RunSweep(sweep, SweepThreads(1))));
  SECTION("a shard edited to CRLF or without its last newline merges the same") {
    const fs::path shard0 = shards / "sweep-shard-0-of-3.csv";
    std::string text = ReadFile(shard0), crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    std::ofstream(shard0, std::ios::binary) << crlf;
    const fs::path shard1 = shards / "sweep-shard-1-of-3.csv";
    text = ReadFile(shard1);
    std::ofstream(shard1, std::ios::binary) << text.substr(0, text.size() - 1);
    Result<MergedSweep> edited = MergeSweepShardFiles({shards.string()});
    REQUIRE(edited.ok());
    CHECK(edited.value().csv == expected);
  }
  SECTION("the shard files may be listed instead of their directory") {
    Result<MergedSweep> listed = MergeSweepShardFiles(
        {(shards / "sweep-shard-2-of-3.csv").string(), (shards / "sweep-shard-0-of-3.csv").string(),
         (shards / "sweep-shard-1-of-3.csv").string()});
    REQUIRE(listed.ok());
    CHECK(listed.value().csv == expected);
  }
  fs::remove_all(whole);
  fs::remove_all(shards);
}

TEST_CASE("a merge refuses missing, duplicate, mismatched or foreign shards", "[sweep]") {
  const SweepFile sweep = LoadSweep(kSmallSweep);  // 5 points of 2 variants
  const SweepResults results = RunSweep(sweep, SweepThreads(2, Shard{0, 2}));
  const SweepResults results1 = RunSweep(sweep, SweepThreads(2, Shard{1, 2}));
  const auto stamped = [](const SweepResults& r, int index, size_t points = 5,
                          uint64_t definition = 7) {
    return FormatSweepShardCsv(r, Shard{index, 2}, points, definition);
  };
  const std::string shard0 = stamped(results, 0), shard1 = stamped(results1, 1);
  auto error = [](const std::vector<std::pair<std::string, std::string>>& files) {
    Result<MergedSweep> merged = MergeSweepShards(files);
    REQUIRE_FALSE(merged.ok());
    return merged.status().ToString();
  };
  CHECK(
      MergeSweepShards({{"d/sweep-shard-0-of-2.csv", shard0}, {"d/sweep-shard-1-of-2.csv", shard1}})
          .ok());
  CHECK(error({{"d/sweep-shard-0-of-2.csv", shard0}}) ==
        "d: missing sweep-shard-1-of-2.csv: a merge needs all 2 shards (found 1: "
        "sweep-shard-0-of-2.csv)");
  CHECK(error({{"d/sweep-shard-0-of-2.csv", shard0}, {"d/sweep-shard-1-of-3.csv", shard1}}) ==
        "d/sweep-shard-1-of-3.csv: is one of 3 shards, but d/sweep-shard-0-of-2.csv is one of 2: "
        "merge the shards of one sweep at a time");
  CHECK(error({{"a/sweep-shard-0-of-2.csv", shard0}, {"b/sweep-shard-0-of-2.csv", shard0}}) ==
        "a/sweep-shard-0-of-2.csv: shard 0 of 2 is given twice (also b/sweep-shard-0-of-2.csv)");
  const std::string other_header =
      "point,/x,variant,makespan_s,p50_s,p95_s,"
      "p99_s,max_s,gpu_allocation_ratio,gpu_"
      "compute_utilization,completed,failed,"
      "running,pending,deleted,cost_per_hour,preemptions,gpu_hours_lost_to_preemption,"
      "faults,gpu_hours_lost_to_faults,goodput,deleted_unbound,never_bound,"
      "longest_wait_s,pending_peak,pending_mean,energy_kwh,gpu_kwh,allocated_idle_kwh,node_kwh,"
      "energy_cost,co2_kg,queueing_mean_s,pods_submitted,restarts,run_time_mean_s,"
      "jobs_completed,jobs_failed,jobs_unfinished,jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,"
      "slowdown_mean,slowdown_p50,slowdown_p95,slowdown_p99,gpu_hours,jain_index,"
      "policy_decisions,rejected_decisions,node_hours,cost_usd\n";
  CHECK(error({{"d/sweep-shard-0-of-2.csv", shard0},
               {"d/sweep-shard-1-of-2.csv",
                FormatShardStamp({Shard{1, 2}, 5, 0, 7}) + other_header}}) ==
        "d/sweep-shard-1-of-2.csv:line 2: header differs from the one of "
        "d/sweep-shard-0-of-2.csv (shards of another sweep?)");
  CHECK(error({{"d/sweep-shard-1-of-2.csv", stamped(results, 1)},
               {"d/sweep-shard-0-of-2.csv", stamped(results1, 0)}}) ==
        "d/sweep-shard-0-of-2.csv:row 1: point 1 does not belong to shard 0 of 2");
  CHECK(error({{"d/results.csv", shard0}}) ==
        "d/results.csv: not a shard file name (expected sweep-shard-<i>-of-<N>.csv)");
  const fs::path empty = SweepTempDir("empty");
  CHECK(MergeSweepShardFiles({empty.string()}).status().ToString() ==
        empty.string() + ": no sweep-shard-<i>-of-<N>.csv files in this directory");
  fs::remove_all(empty);
}

TEST_CASE(
    "a merge refuses a shard cut short, header-only, with a row twice or unstamped, naming the "
    "point",
    "[sweep]") {
  const SweepFile sweep = LoadSweep(kSmallSweep);  // 5 points of 2 variants
  const SweepResults results0 = RunSweep(sweep, SweepThreads(2, Shard{0, 2}));
  const SweepResults results1 = RunSweep(sweep, SweepThreads(2, Shard{1, 2}));
  const std::string shard0 = FormatSweepShardCsv(results0, Shard{0, 2}, 5, 7);
  const std::string shard1 = FormatSweepShardCsv(results1, Shard{1, 2}, 5, 7);
  const std::string name0 = "d/sweep-shard-0-of-2.csv", name1 = "d/sweep-shard-1-of-2.csv";
  auto error = [&](const std::string& edited0) {
    Result<MergedSweep> merged = MergeSweepShards({{name0, edited0}, {name1, shard1}});
    REQUIRE_FALSE(merged.ok());
    return merged.status().ToString();
  };
  REQUIRE(results0.rows.size() == 6);  // points 0, 2, 4
  // The last row cut off (a copy stopped short, an editor): point 4 has one row of two.
  const size_t last = shard0.rfind('\n', shard0.size() - 2);
  CHECK(error(shard0.substr(0, last + 1)) ==
        name0 +
            ": holds 5 rows but was written with 6 (the file was cut or edited): point 4 is "
            "short of rows");
  // Only the stamp and the header.
  const std::string header_only = shard0.substr(0, shard0.find('\n', shard0.find('\n') + 1) + 1);
  CHECK(error(header_only) ==
        name0 + ": point 0 of shard 0 of 2 has no row (the file was cut or edited)");
  // A row twice.
  const std::string row = shard0.substr(last + 1);
  CHECK(error(shard0 + row) == name0 + ":row 7: point 4, variant " + results0.rows.back().variant +
                                   " appears twice (also row 6)");
  // No stamp: a file written by hand or by an older migsim.
  CHECK(error(FormatSweepCsv(results0)) ==
        name0 +
            ":line 1: no shard stamp ('# migsim sweep shard i/N: P points, R rows, definition D'): "
            "migsim merge takes only the shard files migsim sweep --shard writes, unedited");
  // Stamped as another shard than its name says, or of another sweep.
  CHECK(error(FormatSweepShardCsv(results0, Shard{1, 2}, 5, 7)) ==
        name0 + ":line 1: is stamped shard 1/2 but named as shard 0/2");
  CHECK(error(FormatSweepShardCsv(results0, Shard{0, 2}, 5, 8)) ==
        name1 + ":line 1: is a shard of another sweep than " + name0 +
            " (5 points, definition 0000000000000007, not 5 points, definition "
            "0000000000000008): merge the shards of one sweep, unchanged between them");
  // A point beyond the sweep (the stamp says 4 points).
  const std::string four = FormatSweepShardCsv(results0, Shard{0, 2}, 4, 7);
  Result<MergedSweep> beyond =
      MergeSweepShards({{name0, four}, {name1, FormatSweepShardCsv(results1, Shard{1, 2}, 4, 7)}});
  REQUIRE_FALSE(beyond.ok());
  CHECK(beyond.status().ToString() == name0 + ":row 5: point 4 is beyond the sweep's 4 points");
}

TEST_CASE("a directory with a file named like a shard that is none is not merged", "[sweep]") {
  const SweepFile sweep = LoadSweep(kSmallSweep);
  const fs::path dir = SweepTempDir("stray");
  const Shard only{0, 1};
  REQUIRE(WriteFiles(dir.string(),
                     {{SweepCsvName(only),
                       FormatSweepShardCsv(RunSweep(sweep, SweepThreads(2, only)), only, 5, 7)}})
              .ok());
  REQUIRE(MergeSweepShardFiles({dir.string()}).ok());
  std::ofstream(dir / "sweep-shard-1-of-1.csv") << "stray\n";  // shard 1 of 1 does not exist
  CHECK(MergeSweepShardFiles({dir.string()}).status().ToString() ==
        (dir / "sweep-shard-1-of-1.csv").string() +
            ": named like a shard file but not one migsim sweep --shard writes "
            "(sweep-shard-<i>-of-<N>.csv with 0 <= i < N): move it away to merge this directory");
  fs::remove_all(dir);
}

TEST_CASE("a shard stamp reads back only as written", "[sweep]") {
  const ShardStamp stamp{Shard{3, 4}, 12, 6, 0x0123456789abcdefull};
  const std::string line = FormatShardStamp(stamp);
  CHECK(line == "# migsim sweep shard 3/4: 12 points, 6 rows, definition 0123456789abcdef\n");
  const std::optional<ShardStamp> read = ParseShardStamp(line.substr(0, line.size() - 1));
  REQUIRE(read);
  CHECK(read->shard.index == 3);
  CHECK(read->shard.count == 4);
  CHECK(read->points == 12);
  CHECK(read->rows == 6);
  CHECK(read->definition == stamp.definition);
  CHECK_FALSE(ParseShardStamp("# migsim sweep shard 3/4: 12 points, 6 rows, definition 0123"));
  CHECK_FALSE(
      ParseShardStamp("# migsim sweep shard 03/4: 12 points, 6 rows, definition "
                      "0123456789abcdef"));
  CHECK_FALSE(ParseShardStamp("point,/x,variant"));
}

}  // namespace migsim
