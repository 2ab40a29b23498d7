#pragma once
// The tables `migsim openb` prints: per trace and policy, allocation at 100 % and 130 %
// arrived and failed pods as mean ± 95 % interval over the seeds; the end-of-run state as the
// reference simulator reports it; and the MIG edition's variants.

#include <cstddef>
#include <string>
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

// The mean and the half-width of its 95 % confidence interval over the values, t(0.975,
// n-1) x sd / sqrt(n) (seed_interval.h): "83.87 ±0.12"; "83.87 ±0.00 (1/3)" when only 1 of 3
// runs has the value; "n/a" without any.
std::string FormatMeanInterval(const MeanSd& m);

// The mean alone to 2 decimals, "n/a" without values.
std::string FormatMean(const std::vector<double>& values);

// One row per trace and policy (traces in the order of the runs, policies in the order
// given): seeds, alloc % at 100 % and 130 % arrived, failed pods.
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
