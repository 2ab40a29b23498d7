// Running a sweep: sharding its points and running every point and variant.

#include "sim/study/sweep/sweep_run.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "sim/report/sweep_csv.h"
#include "sim/report/sweep_table.h"
#include "sim/study/sweep/sweep_shard.h"
#include "tests/support/sweep_files.h"

namespace migsim {
namespace {

using test::kSmallSweep;
using test::LoadSweep;
using test::SweepThreads;

ShardEnvironment Env(const char* job, const char* slurm, const char* shards) {
  ShardEnvironment env;
  if (job) env.job_completion_index = job;
  if (slurm) env.slurm_array_task_id = slurm;
  if (shards) env.migsim_shards = shards;
  return env;
}

}  // namespace

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
  const SweepFile sweep = LoadSweep(kSmallSweep);
  const SweepResults results = RunSweep(sweep, SweepThreads(2));
  REQUIRE(results.rows.size() == 10);
  CHECK(results.rows[0].variant == "one");
  CHECK(results.rows[1].variant == "spread");
  CHECK(results.rows[0].makespan_s == 30.0);  // three 10 s pods on one GPU
  CHECK(results.rows[2].makespan_s == 30.0);  // /seed=2, still one node
  CHECK(results.rows[4].makespan_s == 20.0);  // two nodes
  CHECK(results.rows[8].makespan_s == 10.0);  // the listed point: three nodes
  CHECK(results.rows[8].cost_per_hour == 1.5);
  CHECK(results.rows[9].completed == 3);
  CHECK(FormatSweepCsv(RunSweep(sweep, SweepThreads(1))) == FormatSweepCsv(results));
  const std::string csv = FormatSweepCsv(results);
  CHECK_THAT(csv, Catch::StartsWith(
                      "point,/cluster/nodes/a/count,/seed,variant,makespan_s,p50_s,p95_s,p99_s,"
                      "max_s,gpu_allocation_ratio,gpu_compute_utilization,completed,failed,"
                      "running,pending,deleted,cost_per_hour,preemptions,"
                      "gpu_hours_lost_to_preemption,faults,gpu_hours_lost_to_faults,goodput,"
                      "deleted_unbound,never_bound,longest_wait_s,pending_peak,pending_mean,"
                      "energy_kwh,gpu_kwh,allocated_idle_kwh,node_kwh,energy_cost,co2_kg,"
                      "queueing_mean_s,pods_submitted,restarts,run_time_mean_s,jobs_completed,"
                      "jobs_failed,jobs_unfinished,jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,"
                      "slowdown_mean,slowdown_p50,slowdown_p95,slowdown_p99,gpu_hours,"
                      "jain_index,policy_decisions,rejected_decisions,node_hours,cost_usd\n"
                      "0,1,1,one,30.000000,10.000000,20.000000,20.000000,20.000000,1.000000,"
                      "1.000000,3,0,0,0,0,0.500000,0,0.000000,0,0.000000,,0,0,20.000000,2,"
                      "1.000000,0.000710,0.000583,0.000000,0.000127,0.000104,0.000260,"
                      // the pods wait 0, 10 and 20 s; one job of 30 s, slowdown 1 (one pod
                      // always running: service time 30 s); 3 x 10 GPU-s; no autoscaling,
                      // so no node-hours nor cost
                      "10.000000,3,0,10.000000,1,0,0,30.000000,30.000000,30.000000,30.000000,"
                      "1.000000,1.000000,1.000000,1.000000,0.008333,1.000000,3,0,,\n"));
  CHECK_THAT(csv, Catch::EndsWith("\n4,3,,spread,10.000000,0.000000,0.000000,0.000000,0.000000,"
                                  "1.000000,1.000000,3,0,0,0,0,1.500000,0,0.000000,0,"
                                  "0.000000,,0,0,0.000000,0,0.000000,0.000710,0.000583,0.000000,"
                                  "0.000127,0.000104,0.000260,0.000000,3,0,10.000000,1,0,0,"
                                  "10.000000,10.000000,10.000000,10.000000,1.000000,1.000000,"
                                  "1.000000,1.000000,0.008333,1.000000,3,0,,\n"));
  CHECK_THAT(FormatSweepTable(results),
             Catch::StartsWith("point  a/count  seed  variant  makespan (s)  p95 queueing (s)"));
}

}  // namespace migsim

namespace migsim {

TEST_CASE("a sweep keeps, per run, a policy's rejected decisions for the CLI to warn of",
          "[sweep]") {
  // The fixture plugin that answers node 999 (tests/policies/plugin): every answer rejected.
  const std::string plugin = std::string(MIGSIM_PLUGIN_FIXTURE_DIR) + "/libplugin_bad_answer.so";
  const SweepFile sweep =
      test::LoadSweep(R"("points": [{"/variants/spread/policy": {"name": null, "library": ")" +
                      plugin + R"("}}, {"/cluster/nodes/a/count": 2}])");
  const SweepResults results = RunSweep(sweep, test::SweepThreads(2));
  REQUIRE(results.rows.size() == 4);
  REQUIRE(results.rejections.size() == 1);  // point 0's spread variant only
  CHECK_THAT(results.rejections[0],
             Catch::StartsWith("point 0, variant spread: policy 'fixture': ") &&
                 Catch::Contains(" decisions were rejected (first: at 0 s, pod w") &&
                 Catch::EndsWith("node 999 does not exist (the cluster has 1 node))"));
}

TEST_CASE("a sweep asked to stop stops each of its runs at its first event time", "[sweep]") {
  const SweepFile sweep = LoadSweep(kSmallSweep);
  SweepRunOptions options = SweepThreads(2);
  std::atomic<int> asked{0};
  options.should_stop = [&asked] {
    ++asked;
    return true;
  };
  const SweepResults results = RunSweep(sweep, options);
  REQUIRE(results.rows.size() == 10);
  CHECK(asked >= 10);  // every run asked, none went on
  for (const SweepRow& row : results.rows) CHECK(row.completed == 0);
}

TEST_CASE("a /seed axis over a scenario that draws nothing at random is said to change nothing",
          "[sweep]") {
  const SweepFile sweep = LoadSweep(kSmallSweep);
  CHECK_THAT(SeedAxisChangesNothing(sweep),
             Catch::StartsWith("the sweep's /seed changes nothing: scenario"));
}

}  // namespace migsim
