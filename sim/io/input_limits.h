#pragma once
// How much one input document may ask for. The caps make a typo such as "count": 1e9 an
// error at its pointer instead of a run that exhausts memory.

#include <cstddef>
#include <cstdint>

namespace migsim::io {

struct InputLimits {
  // The most pods (or retries) one workload field may ask for. Traces are bounded by their
  // rows, Arrivals by pods_per_scenario.
  int64_t pods_per_field = 1'000'000;
  // The most pods one scenario may create before retries (scenario_json.cc checks the sum
  // over the workloads): the largest benchmark's (bench/scenarios/mig-10m.json, 10,000
  // nodes), whose run takes under 4 GiB.
  int64_t pods_per_scenario = 10'000'000;
  // The most pods all the variants of one file may create together: every variant is built
  // and held while the file loads, so without this cap a short file with many variants of
  // the most pods each would take gigabytes to validate.
  int64_t pods_per_file = 10'000'000;
  // The most points a sweep may expand to (each is a validated scenario in memory).
  size_t sweep_points = 100'000;
};

// The limits every loader applies: the defaults above unless UseFuzzingInputLimits ran.
const InputLimits& CurrentInputLimits();

// Lowers the limits for the fuzz targets (fuzz/fuzzer.cc): the same checks at a smaller
// size, because 5,000,000 arrivals take 0.5 s to generate in Release and ten times that
// under ASan, past libFuzzer's one-second timeout per input (which is there to find work
// out of proportion to the input), and each sweep point costs a scenario load.
// REQUIRES: called before any document is loaded, while the process has one thread.
void UseFuzzingInputLimits();

}  // namespace migsim::io
