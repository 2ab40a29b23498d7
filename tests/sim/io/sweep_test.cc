// Sweeps: expanding a sweep file into points, sharding them, and merging the shards'
// CSVs back into what an unsharded run writes.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "sim/io/output_dir.h"
#include "sim/io/sweep_json.h"
#include "sim/io/sweep_merge.h"
#include "sim/io/sweep_results.h"
#include "sim/io/sweep_run.h"
#include "sim/io/sweep_shard.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

// One node of a one-GPU type at $0.5/h, three 10 s pods of one GPU each; two variants.
constexpr const char* kScenario = R"({"name": "t", "description": "d",
  "policy": {"name": "first-fit"},
  "cluster": {
    "node_types": {"box": {"vcpu": 4, "memory_gib": 16, "gpus": 1, "gpu_model": "T4",
                           "price_per_hour": 0.5}},
    "nodes": {"a": {"type": "box", "labels": {}}}},
  "job_classes": {"train": {"run_s": 10}},
  "workloads": {"w": {"kind": "Pod", "count": 3,
                      "template": {"job_class": "train", "resources": {"nvidia.com/gpu": 1}}}},
  "variants": {"one": {}, "spread": {"policy": {"name": "spread"}}}})";

// A sweep of the inline scenario; `members` are its other top-level members.
std::string Sweep(const std::string& members) {
  return R"({"name": "s", "scenario": )" + std::string(kScenario) + ", " + members + "}";
}

SweepFile Load(const std::string& members) {
  Result<SweepFile> sweep = ParseSweepText(Sweep(members), "s.json");
  if (!sweep.ok()) FAIL(sweep.status().ToString());
  return std::move(sweep).value();
}

std::string ErrorOf(const std::string& text, const std::string& label = "s.json") {
  Result<SweepFile> sweep = ParseSweepText(text, label);
  REQUIRE_FALSE(sweep.ok());
  return sweep.status().ToString();
}

std::vector<std::string> PointLabels(const SweepFile& sweep) {
  std::vector<std::string> labels;
  for (const SweepPoint& p : sweep.points) labels.push_back(PointLabel(sweep, p));
  return labels;
}

SweepRunOptions Threads(int threads, std::optional<Shard> shard = std::nullopt) {
  SweepRunOptions options;
  options.threads = threads;
  options.shard = shard;
  return options;
}

ShardEnvironment Env(const char* job, const char* slurm, const char* shards) {
  ShardEnvironment env;
  if (job) env.job_completion_index = job;
  if (slurm) env.slurm_array_task_id = slurm;
  if (shards) env.migsim_shards = shards;
  return env;
}

fs::path TempDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("migsim-sweep-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Two node counts x two seeds = 4 points, 8 runs, plus one listed point.
constexpr const char* kSmallSweep = R"("axes": {"/cluster/nodes/a/count": [1, 2],
                                                 "/seed": [1, 2]},
                                        "points": [{"/cluster/nodes/a/count": 3}])";

}  // namespace

TEST_CASE("a sweep's axes make a cartesian product in file order, the last axis fastest",
          "[sweep]") {
  const SweepFile sweep =
      Load(R"("axes": {"/cluster/nodes/a/count": [1, 2], "/policy/name": ["first-fit", "spread"],
                       "/seed": [7, 8]})");
  CHECK(sweep.columns ==
        std::vector<std::string>{"/cluster/nodes/a/count", "/policy/name", "/seed"});
  REQUIRE(sweep.points.size() == 8);
  CHECK(sweep.points[0].values == std::vector<std::string>{"1", "\"first-fit\"", "7"});
  CHECK(sweep.points[1].values == std::vector<std::string>{"1", "\"first-fit\"", "8"});
  CHECK(sweep.points[2].values == std::vector<std::string>{"1", "\"spread\"", "7"});
  CHECK(sweep.points[7].values == std::vector<std::string>{"2", "\"spread\"", "8"});
  CHECK(PointLabel(sweep, sweep.points[5]) ==
        "/cluster/nodes/a/count=2, /policy/name=\"first-fit\", /seed=8");
  const Scenario& s = sweep.points[5].scenario.variants[0].second;
  CHECK(s.cluster.nodes.size() == 2);
  CHECK(s.seed == 8);
  CHECK(s.policy.name == "first-fit");
  CHECK(sweep.run_count() == 16);
}

TEST_CASE("listed points follow the product and add the pointers they set as columns", "[sweep]") {
  const SweepFile sweep = Load(R"("axes": {"/seed": [1, 2]},
      "points": [{"/cluster/nodes/a/count": 3}, {"/seed": 9, "/horizon_s": 100}, {}])");
  CHECK(sweep.columns == std::vector<std::string>{"/seed", "/cluster/nodes/a/count", "/horizon_s"});
  CHECK(PointLabels(sweep) == std::vector<std::string>{"/seed=1", "/seed=2",
                                                       "/cluster/nodes/a/count=3",
                                                       "/seed=9, /horizon_s=100", ""});
  CHECK(sweep.points[2].values == std::vector<std::string>{"", "3", ""});
  CHECK(sweep.points[3].scenario.variants[0].second.horizon == SimTime::Seconds(100));
  CHECK(sweep.points[4].index == 4);
  SECTION("a sweep may list points only") {
    const SweepFile listed = Load(R"("points": [{"/seed": 3}])");
    CHECK(listed.points.size() == 1);
    CHECK(listed.columns == std::vector<std::string>{"/seed"});
  }
}

TEST_CASE("a point patches the base document and each variant's patch applies on top", "[sweep]") {
  const SweepFile sweep = Load(R"("axes": {"/policy/name": ["best-fit"]})");
  const auto& variants = sweep.points[0].scenario.variants;
  REQUIRE(variants.size() == 2);
  CHECK(variants[0].first == "one");
  CHECK(variants[0].second.policy.name == "best-fit");
  CHECK(variants[1].second.policy.name == "spread");
  SECTION("a sweep runs only the variants it selects") {
    const SweepFile one = Load(R"("variants": ["spread"], "axes": {"/seed": [1, 2]})");
    CHECK(one.points[0].scenario.variants.size() == 1);
    CHECK(one.points[0].scenario.variants[0].first == "spread");
    CHECK(one.run_count() == 2);
  }
  SECTION("a pointer may point into a variant's patch") {
    const SweepFile patched = Load(R"("axes": {"/variants/spread/policy/name": ["best-fit"]})");
    CHECK(patched.points[0].scenario.variants[1].second.policy.name == "best-fit");
  }
}

TEST_CASE("pointer tokens are unescaped: ~1 is a slash and ~0 a tilde", "[sweep]") {
  const SweepFile sweep = Load(R"("axes": {"/workloads/w/template/resources/nvidia.com~1gpu": [1],
                       "/cluster/nodes/a/labels/x~0y": ["v"]})");
  const Scenario& s = sweep.points[0].scenario.variants[0].second;
  CHECK(s.cluster.nodes[0].extra_labels == Labels{{"x~y", "v"}});
  CHECK(PointLabel(sweep, sweep.points[0]) ==
        "/workloads/w/template/resources/nvidia.com~1gpu=1, /cluster/nodes/a/labels/x~0y=\"v\"");
}

TEST_CASE("sweep errors name the sweep file and what is wrong", "[sweep]") {
  SECTION("a missing parent of a pointer") {
    CHECK(ErrorOf(Sweep(R"("axes": {"/cluster/nodez/a/count": [1]})")) ==
          "s.json: point 0 (/cluster/nodez/a/count=1): cannot set /cluster/nodez/a/count: the "
          "scenario has no /cluster/nodez (only the last member of a pointer may be new)");
    CHECK(ErrorOf(Sweep(R"("points": [{"/seed/x": 1}])")) ==
          "s.json: point 0 (/seed/x=1): cannot set /seed/x: the scenario has no /seed (only "
          "the last member of a pointer may be new)");
    CHECK(ErrorOf(Sweep(R"("points": [{"/description": [1], "/description/3": 2}])")) ==
          "s.json: point 0 (/description=[1], /description/3=2): cannot set /description/3: '3' "
          "is not an index of the array /description (size 1)");
    CHECK(ErrorOf(Sweep(R"("axes": {"/name/x": [1]})")) ==
          "s.json: point 0 (/name/x=1): cannot set /name/x: /name is a string, not an object or "
          "an array");
  }
  SECTION("a point whose scenario is invalid") {
    CHECK(ErrorOf(Sweep(R"("axes": {"/cluster/nodes/a/count": [1, 2, 3, 0]})")) ==
          "s.json: point 3 (/cluster/nodes/a/count=0): s.json:/scenario/cluster/nodes/a/count: "
          "must be >= 1");
    CHECK(ErrorOf(Sweep(R"("axes": {"/cluster/nodes/a/cuont": [1]})")) ==
          "s.json: point 0 (/cluster/nodes/a/cuont=1): s.json:/scenario/cluster/nodes/a/cuont: "
          "unknown field 'cuont' (expected one of: type, count, labels, mig, device_plugin, openb_nodes)");
  }
  SECTION("malformed JSON") {
    CHECK_THAT(ErrorOf("{\"name\": \"s\",\n \"axes\" {}}"),
               Catch::StartsWith("s.json:line 2, column 9: malformed JSON: syntax error"));
  }
  SECTION("the sweep's own fields") {
    CHECK(ErrorOf(Sweep(R"("axes": {"seed": [1]})")) ==
          "s.json:/axes/seed: 'seed' is not a JSON pointer (it must start with '/')");
    CHECK(ErrorOf(Sweep(R"("axes": {"/a~2": [1]})")) ==
          "s.json:/axes/~1a~02: '/a~2' is not a JSON pointer ('~' must be followed by 0 or 1)");
    CHECK(ErrorOf(Sweep(R"("axes": {"/seed": []})")) ==
          "s.json:/axes/~1seed: must not be empty (give at least one value)");
    CHECK(ErrorOf(Sweep(R"("axes": {"/seed": 1})")) ==
          "s.json:/axes/~1seed: expected an array, got a number");
    CHECK(ErrorOf(Sweep(R"("axes": {"/seed": [1], "/seed": [2]})")) ==
          "s.json:/axes/~1seed: duplicate key (JSON keeps only one of the values)");
    CHECK(ErrorOf(Sweep(R"("axes": {}, "points": [])")) ==
          "s.json: a sweep needs points: give 'axes', 'points' or both");
    CHECK(ErrorOf(Sweep(R"("variants": ["one", "two"], "points": [{}])")) ==
          "s.json:/variants/1: no variant 'two' in s.json (variants: one, spread)");
    CHECK(ErrorOf(Sweep(R"("pionts": [])")) ==
          "s.json:/pionts: unknown field 'pionts' (expected one of: name, description, "
          "scenario, variants, axes, points)");
    CHECK(ErrorOf(R"({"name": "s", "scenario": 3, "points": [{}]})") ==
          "s.json:/scenario: expected a scenario file path or a scenario object, got a number");
  }
}

TEST_CASE("a sweep reads its scenario file relative to itself", "[sweep]") {
  const fs::path dir = TempDir("relative");
  fs::create_directories(dir / "sweeps");
  std::ofstream(dir / "t.json") << kScenario;
  const std::string sweep_path = (dir / "sweeps" / "s.json").string();
  std::ofstream(sweep_path) << R"({"name": "s", "scenario": "../t.json",
                                   "axes": {"/cluster/nodes/a/count": [2, 0]}})";
  const std::string scenario = (dir / "t.json").string();
  CHECK(LoadSweepFile(sweep_path).status().ToString() ==
        sweep_path + ": point 1 (/cluster/nodes/a/count=0): " + scenario +
            ":/cluster/nodes/a/count: must be >= 1");
  std::ofstream(sweep_path) << R"({"name": "s", "scenario": "../nope.json", "points": [{}]})";
  CHECK(LoadSweepFile(sweep_path).status().ToString() ==
        sweep_path + ":/scenario: cannot read file '" + (dir / "nope.json").string() +
            "': No such file or directory");
  std::ofstream(sweep_path) << R"({"name": "s", "scenario": "../t.json", "points": [{}]})";
  Result<SweepFile> ok = LoadSweepFile(sweep_path);
  REQUIRE(ok.ok());
  CHECK(ok.value().scenario_path == scenario);
  fs::remove_all(dir);
}

TEST_CASE("shards split the points stably, disjointly and completely", "[sweep]") {
  for (int count : {1, 2, 3, 7}) {
    std::vector<int> owners(20, 0);
    for (int i = 0; i < count; ++i) {
      for (size_t p = 0; p < owners.size(); ++p) owners[p] += InShard(p, Shard{i, count}) ? 1 : 0;
    }
    CHECK(owners == std::vector<int>(20, 1));  // each point in exactly one shard
  }
  CHECK(InShard(4, Shard{1, 3}));  // 4 % 3 == 1, whatever else the sweep holds
  CHECK(InShard(5, std::nullopt));
  CHECK(ParseShard("2/3").value().index == 2);
  CHECK(ParseShard("3/3").status().ToString() ==
        "--shard: expected i/N with 0 <= i < N <= 100000, got '3/3'");
  CHECK_FALSE(ParseShard("1").ok());
  CHECK_FALSE(ParseShard("-1/3").ok());
  CHECK(SweepCsvName(Shard{2, 3}) == "sweep-shard-2-of-3.csv");
  CHECK(SweepCsvName(std::nullopt) == "sweep.csv");
  CHECK(ShardOfCsvName("sweep-shard-2-of-3.csv").value().index == 2);
  CHECK_FALSE(ShardOfCsvName("sweep-shard-02-of-3.csv"));
  CHECK_FALSE(ShardOfCsvName("sweep.csv"));
}

TEST_CASE("the shard comes from a batch system's environment", "[sweep]") {
  CHECK_FALSE(ShardFromEnvironment(Env(nullptr, nullptr, nullptr)).value());
  CHECK_FALSE(ShardFromEnvironment(Env(nullptr, nullptr, "4")).value());
  const auto job = ShardFromEnvironment(Env("2", nullptr, "4"));
  CHECK(job.value()->index == 2);
  CHECK(job.value()->count == 4);
  CHECK(ShardFromEnvironment(Env(nullptr, "3", "4")).value()->index == 3);
  CHECK(ShardFromEnvironment(Env(nullptr, "1", nullptr)).status().ToString() ==
        "SLURM_ARRAY_TASK_ID is set (1) but MIGSIM_SHARDS is not: set MIGSIM_SHARDS to the "
        "number of shards (the Job's completions, the array's size), or pass --shard i/N");
  CHECK(ShardFromEnvironment(Env("4", nullptr, "4")).status().ToString() ==
        "JOB_COMPLETION_INDEX/MIGSIM_SHARDS: expected i/N with 0 <= i < N <= 100000, got '4/4'");
}

TEST_CASE("a sweep runs every point and variant, rows by point then variant", "[sweep]") {
  const SweepFile sweep = Load(kSmallSweep);
  const SweepResults results = RunSweep(sweep, Threads(2));
  REQUIRE(results.rows.size() == 10);
  CHECK(results.rows[0].variant == "one");
  CHECK(results.rows[1].variant == "spread");
  CHECK(results.rows[0].makespan_s == 30.0);  // three 10 s pods on one GPU
  CHECK(results.rows[2].makespan_s == 30.0);  // /seed=2, still one node
  CHECK(results.rows[4].makespan_s == 20.0);  // two nodes
  CHECK(results.rows[8].makespan_s == 10.0);  // the listed point: three nodes
  CHECK(results.rows[8].cost_per_hour == 1.5);
  CHECK(results.rows[9].completed == 3);
  CHECK(FormatSweepCsv(RunSweep(sweep, Threads(1))) == FormatSweepCsv(results));
  const std::string csv = FormatSweepCsv(results);
  CHECK_THAT(csv, Catch::StartsWith(
                      "point,/cluster/nodes/a/count,/seed,variant,makespan_s,p50_s,p95_s,p99_s,"
                      "max_s,gpu_allocation_ratio,gpu_compute_utilization,completed,failed,"
                      "running,pending,deleted,cost_per_hour\n"
                      "0,1,1,one,30.000000,10.000000,20.000000,20.000000,20.000000,1.000000,"
                      "1.000000,3,0,0,0,0,0.500000\n"));
  CHECK_THAT(csv, Catch::EndsWith("\n4,3,,spread,10.000000,0.000000,0.000000,0.000000,0.000000,"
                                  "1.000000,1.000000,3,0,0,0,0,1.500000\n"));
  CHECK_THAT(FormatSweepTable(results),
             Catch::StartsWith("point  a/count  seed  variant  makespan (s)  p95 queueing (s)"));
}

TEST_CASE("a sweep CSV reads back to the same rows, quoting JSON strings", "[sweep]") {
  SweepResults results{.columns = {"/a,b", "/p"}, .rows = {}};
  SweepRow row;
  row.point = 3;
  row.values = {"\"x,y\"", ""};
  row.variant = "v";
  row.p95_s = 1.25;
  row.cost_per_hour = RoundToMicro(21.9576 * 3);
  results.rows.push_back(row);
  const std::string csv = FormatSweepCsv(results);
  CHECK_THAT(csv, Catch::Contains("\n3,\"\"\"x,y\"\"\",,v,,0.000000,1.250000,"));
  CHECK_THAT(csv, Catch::StartsWith("point,\"/a,b\",/p,variant,"));
  Result<SweepCsv> back = ParseSweepCsv(csv, "x.csv");
  REQUIRE(back.ok());
  CHECK(back.value().results.columns == results.columns);
  CHECK(back.value().results.rows[0].values == row.values);
  CHECK_FALSE(back.value().results.rows[0].makespan_s);
  CHECK(FormatSweepCsv(back.value().results) == csv);
  CHECK(FormatSweepTable(back.value().results) == FormatSweepTable(results));
  CHECK(ParseSweepCsv("point,variant\n", "x.csv").status().ToString() ==
        "x.csv:line 1: not a sweep CSV: expected the header point,<pointers...>,variant,"
        "makespan_s,...,cost_per_hour");
  CHECK(ParseSweepCsv(csv + "4,1\n", "x.csv").status().ToString() ==
        "x.csv:line 3: expected 17 fields, got 2");
}

TEST_CASE("the table shortens pointers to their last tokens while they stay distinct", "[sweep]") {
  const SweepResults results{.columns = {"/a/b/c", "/x/b/c", "/seed", "/a/d~1e"}, .rows = {}};
  CHECK(FormatSweepTable(results) ==
        "point  a/b/c  x/b/c  seed  a/d~1e  variant  makespan (s)  p95 queueing (s)  "
        "GPU allocation  GPU utilization  completed  failed  pending  cost ($/h)\n");
}

TEST_CASE("three shards merged are byte-identical to the unsharded sweep.csv", "[sweep]") {
  const SweepFile sweep = Load(kSmallSweep);
  const fs::path whole = TempDir("whole"), shards = TempDir("shards");
  REQUIRE(WriteFiles(whole.string(),
                     {{SweepCsvName(std::nullopt), FormatSweepCsv(RunSweep(sweep, Threads(2)))}})
              .ok());
  for (int i = 0; i < 3; ++i) {
    const Shard shard{i, 3};
    const SweepResults part = RunSweep(sweep, Threads(2, shard));
    for (const SweepRow& row : part.rows) CHECK(row.point % 3 == static_cast<size_t>(i));
    REQUIRE(WriteFiles(shards.string(), {{SweepCsvName(shard), FormatSweepCsv(part)}}).ok());
  }
  Result<MergedSweep> merged = MergeSweepShardFiles({shards.string()});
  REQUIRE(merged.ok());
  const std::string expected = ReadFile(whole / "sweep.csv");
  CHECK(merged.value().csv == expected);
  CHECK(FormatSweepTable(merged.value().results) == FormatSweepTable(RunSweep(sweep, Threads(1))));
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
  const SweepResults results = RunSweep(Load(kSmallSweep), Threads(2, Shard{0, 2}));
  const std::string shard0 = FormatSweepCsv(results);
  const std::string shard1 = FormatSweepCsv(SweepResults{.columns = results.columns, .rows = {}});
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
  CHECK(error({{"d/sweep-shard-0-of-2.csv", shard0},
               {"d/sweep-shard-1-of-2.csv",
                "point,/x,variant,makespan_s,p50_s,p95_s,"
                "p99_s,max_s,gpu_allocation_ratio,gpu_"
                "compute_utilization,completed,failed,"
                "running,pending,deleted,cost_per_hour\n"}}) ==
        "d/sweep-shard-1-of-2.csv:line 1: header differs from the one of "
        "d/sweep-shard-0-of-2.csv (shards of another sweep?)");
  CHECK(error({{"d/sweep-shard-1-of-2.csv", shard0}, {"d/sweep-shard-0-of-2.csv", shard1}}) ==
        "d/sweep-shard-1-of-2.csv:row 1: point 0 does not belong to shard 1 of 2");
  CHECK(error({{"d/results.csv", shard0}}) ==
        "d/results.csv: not a shard file name (expected sweep-shard-<i>-of-<N>.csv)");
  const fs::path empty = TempDir("empty");
  CHECK(MergeSweepShardFiles({empty.string()}).status().ToString() ==
        empty.string() + ": no sweep-shard-<i>-of-<N>.csv files in this directory");
  fs::remove_all(empty);
}

TEST_CASE("the cost of a cluster is the sum of its nodes' prices per hour", "[sweep]") {
  const SweepFile sweep = Load(R"("points": [{"/cluster/nodes/a/count": 4}])");
  CHECK(ClusterCostPerHour(sweep.points[0].scenario.variants[0].second.cluster) == 2.0);
  CHECK(ClusterCostPerHour(ClusterSpec{}) == 0);
}

}  // namespace migsim
