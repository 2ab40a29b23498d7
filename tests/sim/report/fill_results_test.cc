// Binning fill-experiment events into the study's percentage curves and writing them in
// the layout of its expected-results CSVs (docs: openb-protocol.md §2.5).
#include "sim/report/fill_results.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace migsim {
namespace {

constexpr int64_t kGpus = 100;  // 100,000 milli: 1 % of capacity is 1000 milli

FillEvent Event(int64_t arrived, int64_t used, double frag) {
  return FillEvent{arrived, used, frag, static_cast<double>(kGpus * 1000 - used)};
}

// Eight events over bins 0..5 (arrived % in parentheses):
//   bin 0: 0 (0), 500 (0.5, half to even → 0)
//   bin 1: none
//   bin 2: 1500 (1.5 → 2), 2500 (2.5 → 2)
//   bin 3: none (3500 is 3.5 → 4)
//   bin 4: 3500, 4000, 4000
//   bin 5: 4600 (4.6 → 5)
FillResult HandMade() {
  FillResult r;
  r.total_gpus = kGpus;
  r.events = {Event(0, 0, 1000),       Event(500, 500, 2000),   Event(1500, 1234, 3000),
              Event(2500, 2346, 5000), Event(3500, 3000, 4000), Event(4000, 3007, 4000),
              Event(4000, 3007, 7000), Event(4600, 5000, 10000)};
  r.pods_submitted = static_cast<int64_t>(r.events.size());
  return r;
}

// 100 × F / idle of one event.
double Ratio(double frag, int64_t used) {
  return 100 * frag / static_cast<double>(kGpus * 1000 - used);
}

// Every cell, a trailing empty one included (a missing last bin).
std::vector<std::string> Split(const std::string& line, char sep = ',') {
  std::vector<std::string> cells;
  size_t from = 0;
  for (size_t at; (at = line.find(sep, from)) != std::string::npos; from = at + 1) {
    cells.push_back(line.substr(from, at - from));
  }
  cells.push_back(line.substr(from));
  return cells;
}

// The lines of a text that ends with a newline.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines = Split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::string PercentColumns() {
  std::string out;
  for (int x = 0; x <= 130; ++x) out += "," + std::to_string(x);
  return out;
}

FillRun MakeRun(std::string policy, uint64_t seed, FillResult result) {
  return FillRun{"openb_pod_list_default", FillConfig{std::move(policy), seed, 1.3},
                 std::move(result)};
}

TEST_CASE("binning rounds the arrived percentage half to even", "[openb][io]") {
  const FillCurves c = BinFill(HandMade(), 6);
  REQUIRE(c.alloc.size() == 7);
  REQUIRE(c.frag.size() == 7);
  REQUIRE(c.frag_ratio.size() == 7);
  // 0.5 % falls in bin 0 (with 0 %), 1.5 % and 2.5 % both in bin 2, 3.5 % in bin 4.
  CHECK(c.alloc[0] == Approx((0.00 + 0.50) / 2));
  CHECK(c.alloc[2] == Approx((1.23 + 2.35) / 2));
  CHECK(c.frag_ratio[0] == Approx((Ratio(1000, 0) + Ratio(2000, 500)) / 2));
  CHECK(c.frag_ratio[2] == Approx((Ratio(3000, 1234) + Ratio(5000, 2346)) / 2));
  CHECK(c.frag_ratio[4] ==
        Approx((Ratio(4000, 3000) + Ratio(4000, 3007) + Ratio(7000, 3007)) / 3));
  CHECK(c.frag_ratio[5] == Approx(Ratio(10000, 5000)));
}

TEST_CASE("allocation is rounded to 2 decimals per event before averaging", "[openb][io]") {
  const FillCurves c = BinFill(HandMade(), 6);
  // 1.234 % → 1.23 and 2.346 % → 2.35: mean 1.79 (unrounded it would be 1.79 as well).
  CHECK(c.alloc[2] == Approx(1.79));
  // 3.000, 3.007, 3.007 % → 3.00, 3.01, 3.01: mean 3.0067 → 3.01; averaging first would
  // give 3.0047 → 3.00.
  CHECK(c.alloc[4] == Approx(3.01));
  CHECK(c.alloc[5] == Approx(5.00));
}

TEST_CASE("an empty bin takes the events of its neighbours", "[openb][io]") {
  const FillCurves c = BinFill(HandMade(), 6);
  // Bin 1: the events of bins 0 and 2.
  CHECK(c.alloc[1] == Approx((0.00 + 0.50 + 1.23 + 2.35) / 4));  // 1.02
  CHECK(c.frag[1] == Approx(2.75));                              // (1000+2000+3000+5000)/4
  CHECK(c.frag_ratio[1] == Approx((Ratio(1000, 0) + Ratio(2000, 500) + Ratio(3000, 1234) +
                                   Ratio(5000, 2346)) /
                                  4));
  // Bin 3: the events of bins 2 and 4.
  CHECK(c.alloc[3] == Approx((1.23 + 2.35 + 3.00 + 3.01 + 3.01) / 5));  // 2.52
  CHECK(c.frag[3] == Approx(4.60));
  // Bin 6, the last: bin 5 only (nothing beyond the last bin is binned).
  CHECK(c.alloc[6] == Approx(5.00));
  CHECK(c.frag[6] == Approx(10.00));
  CHECK(c.frag_ratio[6] == Approx(Ratio(10000, 5000)));
}

TEST_CASE("a bin with no event in it or beside it is missing: NaN, an empty CSV cell",
          "[openb][io]") {
  FillResult r;
  r.total_gpus = 1;
  r.events = {FillEvent{0, 0, 1000, 1000}, FillEvent{500, 500, 0, 500}};  // 0 % then 50 %
  const FillCurves c = BinFill(r, 52);
  CHECK(c.alloc[1] == Approx(0.0));  // bin 0's event
  CHECK(std::isnan(c.alloc[2]));
  CHECK(std::isnan(c.frag[48]));
  CHECK(std::isnan(c.frag_ratio[52]));
  CHECK(c.alloc[51] == Approx(50.0));
  const std::string row = Lines(FormatAllocCsv({MakeRun("fgd", 1, r)}))[1];
  CHECK_THAT(row, Catch::StartsWith("openb_pod_list_default,fgd,1.3,1,1,0.00,0.00,,,"));
  CHECK_THAT(row, Catch::Contains(",,50.00,50.00,50.00,,,"));
}

TEST_CASE("the MIG edition's x-axis is the arrived % of the openb cluster it was given",
          "[openb][io]") {
  MigFillResult r;
  r.gpus = 8;
  r.capacity_gpus = 4;
  r.events = {MigFillEvent{.arrived_milli = 4000, .placed_milli = 4000}};  // 100 % of 4 GPUs
  const MigCurves c = BinMigFill(r);
  CHECK(c.placed[100] == Approx(50.0));  // 4 of the MIG cluster's 8 GPUs
  CHECK(std::isnan(c.placed[97]));
}

TEST_CASE("fragmentation is the mean amount as a percentage of capacity, 2 decimals",
          "[openb][io]") {
  const FillCurves c = BinFill(HandMade(), 6);
  // 1 % of 100 GPUs is 1000 milli.
  CHECK(c.frag[0] == Approx(1.50));
  CHECK(c.frag[2] == Approx(4.00));
  CHECK(c.frag[4] == Approx(5.00));
  CHECK(c.frag[5] == Approx(10.00));

  FillResult r;
  r.total_gpus = 7;  // 7000 milli
  r.events = {FillEvent{0, 0, 1000, 7000}};
  // 100 × 1000 / 1000 / 7 = 14.2857 → 14.29.
  CHECK(BinFill(r, 2).frag[0] == Approx(14.29));
  // 100 × 1000 / 7000 = 14.2857..., not rounded.
  CHECK(BinFill(r, 2).frag_ratio[0] == Approx(100.0 / 7));
}

TEST_CASE("the fragmentation ratio is 0 when nothing is idle", "[openb][io]") {
  FillResult r;
  r.total_gpus = 1;
  r.events = {FillEvent{1000, 1000, 0, 0}};  // everything allocated: nothing idle
  const FillCurves c = BinFill(r, 100);
  CHECK(c.frag_ratio[100] == 0);
  CHECK(c.alloc[100] == Approx(100.0));
}

TEST_CASE("the allocation CSV has a total_gpus column and one row per run", "[openb][io]") {
  const std::string csv = FormatAllocCsv({MakeRun("fgd", 42, HandMade()),
                                          MakeRun("random", 43, HandMade())});
  const std::vector<std::string> lines = Lines(csv);
  REQUIRE(lines.size() == 3);
  CHECK(csv.back() == '\n');
  CHECK(lines[0] == "workload,sc_policy,tune,seed,total_gpus" + PercentColumns());
  const std::vector<std::string> row = Split(lines[1]);
  REQUIRE(row.size() == 5 + 131);
  CHECK(std::vector<std::string>(row.begin(), row.begin() + 12) ==
        std::vector<std::string>{"openb_pod_list_default", "fgd", "1.3", "42", "100", "0.25",
                                 "1.02", "1.79", "2.52", "3.01", "5.00", "5.00"});
  CHECK(lines[2].rfind("openb_pod_list_default,random,1.3,43,100,0.25,", 0) == 0);
}

TEST_CASE("the fragmentation CSV has no total_gpus column", "[openb][io]") {
  const std::vector<std::string> lines = Lines(FormatFragCsv({MakeRun("fgd", 42, HandMade())}));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "workload,sc_policy,tune,seed" + PercentColumns());
  const std::vector<std::string> row = Split(lines[1]);
  REQUIRE(row.size() == 4 + 131);
  CHECK(std::vector<std::string>(row.begin(), row.begin() + 11) ==
        std::vector<std::string>{"openb_pod_list_default", "fgd", "1.3", "42", "1.50", "2.75",
                                 "4.00", "4.60", "5.00", "10.00", "10.00"});
}

TEST_CASE("the fragmentation-ratio CSV keeps the unrounded means", "[openb][io]") {
  const std::vector<std::string> lines =
      Lines(FormatFragRatioCsv({MakeRun("best-fit-share", 51, HandMade())}));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "workload,sc_policy,tune,seed,total_gpus" + PercentColumns());
  const std::vector<std::string> row = Split(lines[1]);
  REQUIRE(row.size() == 5 + 131);
  CHECK(std::vector<std::string>(row.begin(), row.begin() + 5) ==
        std::vector<std::string>{"openb_pod_list_default", "best-fit-share", "1.3", "51",
                                 "100"});
  // Bin 0: the mean of 1 and 2.0100..., written unrounded (more than 2 decimals).
  CHECK(row[5].size() > 4);
  CHECK(std::stod(row[5 + 0]) == Approx((Ratio(1000, 0) + Ratio(2000, 500)) / 2).epsilon(1e-9));
  CHECK(std::stod(row[5 + 2]) ==
        Approx((Ratio(3000, 1234) + Ratio(5000, 2346)) / 2).epsilon(1e-9));
  CHECK(std::stod(row[5 + 5]) == Approx(Ratio(10000, 5000)).epsilon(1e-9));
}

TEST_CASE("the failed-pod CSV lists each run's failed shapes with <none> for no type",
          "[openb][io]") {
  FillResult a;
  a.total_gpus = kGpus;
  a.failed = {{PodShape{8000, 1000, 4, ""}, 3}, {PodShape{12000, 500, 1, "V100M16|V100M32"}, 1}};
  FillResult b;
  b.total_gpus = kGpus;
  b.failed = {{PodShape{4000, 0, 0, ""}, 2}};
  FillResult none;
  none.total_gpus = kGpus;
  const std::string header =
      "order,workload,sc_policy,tune,seed,num_pod,cpu_milli,num_gpu,gpu_milli,gpu_type_req\n";
  CHECK(FormatFailedCsv({MakeRun("fgd", 42, a), MakeRun("random", 43, b),
                         MakeRun("fgd", 44, none)}) ==
        header +
            "0,openb_pod_list_default,fgd,1.3,42,3,8000,4,1000,<none>\n"
            "1,openb_pod_list_default,fgd,1.3,42,1,12000,1,500,V100M16|V100M32\n"
            "0,openb_pod_list_default,random,1.3,43,2,4000,0,0,<none>\n");
  CHECK(FormatFailedCsv({}) == header);
}

TEST_CASE("the final-state CSV gives the reference report's shares of CPU, memory, GPUs and "
          "idle milli-GPU",
          "[openb][io]") {
  FillResult r;
  r.total_gpus = kGpus;
  FillFinalState& f = r.final_state;
  f.cpu_milli_used = 3000, f.cpu_milli_total = 4000;
  f.memory_mib_used = 1, f.memory_mib_total = 3;
  f.gpus_allocated = 80;
  f.milli_gpu_used = 75'000;
  f.idle = FragBreakdown{10000, 5000, 2500, 2500, 1250, 3750, 0};  // 25,000 idle
  const std::vector<std::string> lines = Lines(FormatFinalStateCsv({MakeRun("fgd", 42, r)}));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] ==
        "workload,sc_policy,tune,seed,milli_cpu_pct,memory_pct,gpus_allocated,gpus_allocated_pct,"
        "milli_gpu_pct,idle_milli,frag_milli,frag_pct_of_idle,q1,q2,q3,q4,xl,xr,no_access");
  CHECK(lines[1] ==
        "openb_pod_list_default,fgd,1.3,42,75.00,33.33,80,80.00,75.00,25000.00,22500.00,90.00,"
        "40.00,20.00,10.00,10.00,5.00,15.00,0.00");
}

}  // namespace
}  // namespace migsim
