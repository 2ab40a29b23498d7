#pragma once
// The tables `migsim openb` prints: per trace and policy, allocation at 100 % and 130 %
// arrived and failed pods as mean ± 95 % interval over the seeds; the end-of-run state as the
// reference simulator reports it; and the MIG edition's variants.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/study/openb/openb_campaign.h"

namespace migsim {

// Mean and sample sd over the values that are there: a NaN (a bin without events in that
// run, possible only on tiny clusters) is left out and counted as missing. sd is 0 with
// fewer than two values; mean and sd are 0 without any.
struct MeanSd {
  double mean = 0, sd = 0;
  size_t n = 0, missing = 0;
};
MeanSd ComputeMeanSd(const std::vector<double>& values);

// The half-width of the mean's 95 % confidence interval, t(0.975, n-1) x sd / sqrt(n); 0
// without values.
double HalfWidth95(const MeanSd& m);

// The mean and the half-width of its 95 % confidence interval over the values, t(0.975,
// n-1) x sd / sqrt(n) (seed_interval.h): "83.87 ±0.12"; "83.87 ±0.00 (1/3)" when only 1 of 3
// runs has the value; "n/a" without any.
std::string FormatMeanInterval(const MeanSd& m);

// The mean alone to 2 decimals, "n/a" without values.
std::string FormatMean(const std::vector<double>& values);

// One trace and policy over its seeds: allocation (% of GPU capacity) when 100 % and 130 %
// of the capacity has arrived, failed pods.
struct FillSummaryRow {
  std::string policy, trace;
  size_t seeds = 0;
  MeanSd alloc_100, alloc_130, failed_pods;
};
// Traces in the order of the runs, policies in the order given.
std::vector<FillSummaryRow> FillSummaryRows(const std::vector<FillRun>& runs,
                                            const std::vector<std::string>& policies);

// The end-of-run columns, as --json names them: allocated CPU %, memory %, GPUs holding any
// share, milli-GPU %, fragmentation % of idle, then the idle milli-GPU by FGD category.
inline constexpr std::array<std::string_view, 11> kFinalStateColumns = {
    "cpu_percent",   "memory_percent", "gpus_allocated", "milli_gpu_percent",
    "frag_percent",  "q1_percent",     "q2_percent",     "q3_percent",
    "q4_percent",    "xl_percent",     "xr_percent"};
// One trace and policy at the end of its runs: each column's mean over the seeds.
struct FinalStateRow {
  std::string policy, trace;
  std::array<double, kFinalStateColumns.size()> means{};
};
std::vector<FinalStateRow> FinalStateRows(const std::vector<FillRun>& runs,
                                          const std::vector<std::string>& policies);

// One variant and trace of the MIG edition over its seeds: placed % at 100 % and 130 %,
// slices % at 130 % and MIG fragmentation % at 100 %.
struct MigSummaryRow {
  std::string variant, trace;
  MeanSd placed_100, placed_130, slices_130, frag_100;
};
std::vector<MigSummaryRow> MigSummaryRows(const std::vector<MigFillRun>& runs);
// The MIG edition's nodes (p4d.24xlarge, 8 GPUs each); 0 without runs.
size_t MigSummaryNodes(const std::vector<MigFillRun>& runs);

// One row per trace and policy (FillSummaryRows): seeds, alloc % at 100 % and 130 %
// arrived, failed pods.
std::string FormatFillSummary(const std::vector<FillRun>& runs,
                              const std::vector<std::string>& policies);

// The end of the runs as the reference simulator's final report states it, mean over the
// seeds: allocated CPU, memory, GPUs holding any share, milli-GPU, and the idle milli-GPU
// by FGD category (% of idle). Starts with a blank line and a title.
std::string FormatFinalStateSummary(const std::vector<FillRun>& runs,
                                    const std::vector<std::string>& policies);

// The MIG edition: one row per variant and trace (runs of a pair adjacent, as
// RunMigCampaign orders them), placed % at 100 % and 130 %, slices % at 130 % and MIG
// fragmentation % at 100 %, means over the seeds. Starts with a blank line and a title.
std::string FormatMigSummary(const std::vector<MigFillRun>& runs);

}  // namespace migsim
