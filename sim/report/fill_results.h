#pragma once
// The fill experiment's results in the layout of the ATC'23 study's expected-results
// CSVs (openb-protocol.md §2.5), so they can be compared directly.

#include <string>
#include <vector>

#include "sim/study/openb/openb_campaign.h"

namespace migsim {

// The percentage bins 0..max_percent of one run: alloc = mean allocated % of capacity,
// frag = mean fragmentation % of capacity, frag_ratio = mean 100 x F / idle, each over
// the events whose arrived % rounds (half to even) to the bin; an empty bin takes the
// events of its neighbours (x-1..x+1). A bin still without events (only on clusters so
// small that one pod moves the arrived % by more than 2) is NaN, and an empty CSV cell,
// as the study's pandas scripts would leave it.
struct FillCurves {
  std::vector<double> alloc, frag, frag_ratio;
};
FillCurves BinFill(const FillResult& result, int max_percent = 130);

// The same binning for any per-event value: `arrived_milli[i]` places value i in the bin
// of round(arrived % of `total_gpus`); the bin's mean, neighbours for an empty bin, NaN
// when they are empty too.
std::vector<double> BinByArrived(const std::vector<int64_t>& arrived_milli,
                                 const std::vector<double>& values, int64_t total_gpus,
                                 int max_percent = 130);

// The MIG edition (one run per variant): placed = milli-GPU requested by placed pods,
// slices = compute slices in use, frag = MIG fragmentation, each as % of the capacity.
struct MigCurves {
  std::vector<double> placed, slices, frag;
};
MigCurves BinMigFill(const MigFillResult& result, int max_percent = 130);
// workload,variant,tune,seed,total_gpus,0,...,130 of one curve per run.
std::string FormatMigCsv(const std::vector<MigFillRun>& runs, std::vector<double> MigCurves::*curve);

// workload,sc_policy,tune,seed,total_gpus,0,...,130 (alloc and frag_ratio);
// workload,sc_policy,tune,seed,0,...,130 (frag, which the study writes without total_gpus).
std::string FormatAllocCsv(const std::vector<FillRun>& runs);
std::string FormatFragCsv(const std::vector<FillRun>& runs);
std::string FormatFragRatioCsv(const std::vector<FillRun>& runs);
// order,workload,sc_policy,tune,seed,num_pod,cpu_milli,num_gpu,gpu_milli,gpu_type_req
std::string FormatFailedCsv(const std::vector<FillRun>& runs);

// The end of each run as the reference simulator reports it (openb-protocol.md §2.5), one
// row per run: workload,sc_policy,tune,seed,milli_cpu_pct,memory_pct,gpus_allocated,
// gpus_allocated_pct,milli_gpu_pct,idle_milli,frag_milli,frag_pct_of_idle, then
// q1,q2,q3,q4,xl,xr,no_access as % of the idle milli-GPU. Percentages to 2 decimals.
std::string FormatFinalStateCsv(const std::vector<FillRun>& runs);

}  // namespace migsim
