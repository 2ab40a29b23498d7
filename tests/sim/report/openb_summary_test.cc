// The tables `migsim openb` prints: mean and sd over seeds with missing values, and the
// three tables' rows for runs made by hand.
#include "sim/report/openb_summary.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace migsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One GPU (1000 milli): an event at arrived 1000 lands in bin 100, at 1300 in bin 130,
// and its allocation in % is used / 10.
FillRun OneGpuRun(const std::string& policy, uint64_t seed, std::vector<FillEvent> events,
                  int64_t failed) {
  FillRun run{"t", FillConfig{policy, seed, 1.3}, FillResult{}};
  run.result.total_gpus = 1;
  run.result.events = std::move(events);
  run.result.pods_failed = failed;
  return run;
}

}  // namespace

TEST_CASE("mean and sample sd leave missing values out and count them", "[openb][report]") {
  SECTION("all present") {
    const MeanSd m = ComputeMeanSd({1, 2, 3});
    CHECK(m.mean == 2);
    CHECK(m.sd == 1);
    CHECK(m.n == 3);
    CHECK(m.missing == 0);
  }
  SECTION("a NaN is missing, and one value has sd 0") {
    const MeanSd m = ComputeMeanSd({kNaN, 4});
    CHECK(m.mean == 4);
    CHECK(m.sd == 0);
    CHECK(m.n == 1);
    CHECK(m.missing == 1);
  }
  SECTION("no values at all") {
    const MeanSd m = ComputeMeanSd({kNaN, kNaN});
    CHECK(m.n == 0);
    CHECK(m.missing == 2);
    CHECK(m.mean == 0);
  }
}

TEST_CASE("mean and interval show the share of runs that have the value when some miss it",
          "[openb][report]") {
  // 80 and 90: sd 7.07, half-width t(0.975, 1) x 7.07 / sqrt 2 = 12.706205 x 5 = 63.53.
  CHECK(FormatMeanInterval(ComputeMeanSd({80, 90})) == "85.00 \u00b163.53");
  CHECK(FormatMeanInterval(ComputeMeanSd({83.87, kNaN, kNaN})) == "83.87 \u00b10.00 (1/3)");
  CHECK(FormatMeanInterval(ComputeMeanSd({kNaN})) == "n/a");
  CHECK(FormatMeanInterval(ComputeMeanSd({})) == "n/a");
  CHECK(FormatMean({1, 2, kNaN}) == "1.50");
  CHECK(FormatMean({kNaN}) == "n/a");
}

TEST_CASE("the fill summary has a row per trace and policy, with n/a for a policy without runs",
          "[openb][report]") {
  const std::vector<FillRun> runs = {
      OneGpuRun("fgd", 1, {FillEvent{1000, 800, 0, 200}, FillEvent{1300, 900, 0, 100}}, 2),
      OneGpuRun("fgd", 2, {FillEvent{1000, 900, 0, 100}}, 4)};  // nothing near 130 %
  CHECK(FormatFillSummary(runs, {"fgd", "random"}) ==
        "policy           trace                       seeds       alloc % at 100 %"
        "       alloc % at 130 %      failed pods\n"
        "fgd              t                               2           85.00 \u00b163.5"
        "3      90.00 \u00b10.00 (1/2)      3.00 \u00b112.71\n"
        "random           t                               0                    n/"
        "a                    n/a              n/a\n"
        "(mean \u00b1 95 % confidence interval over the seeds: Student's t, n - 1 degrees of "
        "freedom)\n");
}

TEST_CASE("the end-of-run table gives shares of the totals and of the idle milli-GPU",
          "[openb][report]") {
  FillRun run = OneGpuRun("fgd", 1, {}, 0);
  FillFinalState& f = run.result.final_state;
  f.cpu_milli_used = 500, f.cpu_milli_total = 1000;
  f.memory_mib_used = 250, f.memory_mib_total = 1000;
  f.gpus_allocated = 3;
  f.milli_gpu_used = 375;
  f.idle = FragBreakdown{.q1 = 10, .q2 = 0, .q3 = 80, .q4 = 0, .xl = 10, .xr = 0, .na = 0};
  const std::string table = FormatFinalStateSummary({run}, {"fgd"});
  CHECK_THAT(table, Catch::StartsWith("\nEnd of run (mean over seeds;"));
  CHECK_THAT(table,
             Catch::EndsWith("policy           trace                        cpu %   mem %    GPUs"
                             "    mGPU %  frag %     q1     q2     q3     q4     xl     xr\n"
                             "fgd              t                            50.00   25.00     3.0"
                             "     37.50   20.00  10.00   0.00  80.00   0.00  10.00   0.00\n"));
}

TEST_CASE("the MIG table has a row per variant and trace and counts p4d nodes", "[openb][report]") {
  MigFillRun run{"t", "static:all-balanced", 1.3, 1, MigFillResult{}};
  run.result.gpus = 16;
  run.result.capacity_gpus = 1;
  run.result.events = {MigFillEvent{.arrived_milli = 1000, .placed_milli = 8000}};
  CHECK(FormatMigSummary({run, run}) ==
        "\nMIG edition: 2 p4d.24xlarge nodes (A100-40GB); GPU requests as MIG profiles\n"
        "variant                    trace                       placed % @100    placed % @130"
        "    slices % @130  MIG frag % @100\n"
        "static:all-balanced        t                                   50.00              n/a"
        "              n/a             0.00\n");
}

}  // namespace migsim
