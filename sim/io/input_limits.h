#pragma once
// How much one input document may ask for, and how much one run may create. The caps make a
// typo such as "count": 1e9 an error at its pointer instead of a run that exhausts memory;
// each has a name (`--limit NAME=N` raises it on purpose: README "Limits").

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"

namespace migsim::io {

struct InputLimits {
  // pods-per-field: the most pods (or retries) one workload field may ask for. Traces are
  // bounded by their rows, Arrivals by pods_per_scenario.
  int64_t pods_per_field = 1'000'000;
  // pods: the most pods one scenario may create before retries (scenario_cost.cc sums the
  // workloads, a Deployment's every scale-up included): the largest benchmark's
  // (bench/scenarios/mig-10m.json, 10,000 nodes), whose run takes under 4 GiB.
  int64_t pods_per_scenario = 10'000'000;
  // pods-with-retries: the most pods one scenario could create were every retry it allows
  // used (a Job's backoffLimit, a Workflow step's retryStrategy, a DistributedJob's
  // restarts of the whole gang). Ten times `pods`: retries are rare, and a run that does
  // create that many is stopped by run-pods.
  int64_t pods_with_retries = 100'000'000;
  // pods-per-file: the most pods all the variants of one file may create together: every
  // variant is built and held while the file loads, so without this cap a short file with
  // many variants of the most pods each would take gigabytes to validate.
  int64_t pods_per_file = 10'000'000;
  // sweep-points: the most points a sweep may expand to (each is a validated scenario in
  // memory).
  size_t sweep_points = 100'000;
  // variants: the most variants one scenario file may have (each is a scenario in memory).
  int64_t variants = 100'000;
  // gpu-devices: the most GPU devices the nodes of one scenario may hold, counting each
  // MIG-capable GPU as its largest number of instances (7 on an A100) and an autoscaled
  // pool at its max: 10,000 p4d.24xlarge are 560,000.
  int64_t gpu_devices = 10'000'000;
  // fault-events: the most faults that hit in one run: the fault processes' expected count
  // over the horizon is checked before the run, and the run stops past it. A run holds
  // about 2.4 KB per fault (566,490 faults took 1.35 GB): a million is about 2.4 GB.
  int64_t fault_events = 1'000'000;
  // yaml-nodes: the most values one Kubernetes manifest object may expand to as it is read
  // (YAML aliases repeat a value without repeating its text: "billion laughs").
  int64_t yaml_nodes = 1'000'000;
  // run-pods: the most pods one run may create, retries and replacements included; the
  // run stops cleanly past it (pods that keep failing under a Deployment, say). Twice
  // `pods`: about 8 GiB at the 10-million-pod benchmark's 4 GiB.
  int64_t run_pods = 20'000'000;
};

// The limits every loader applies: the defaults above unless UseFuzzingInputLimits or
// SetInputLimit changed them.
const InputLimits& CurrentInputLimits();

// Lowers the limits for the fuzz targets (fuzz/fuzzer.cc): the same checks at a smaller
// size, because 5,000,000 arrivals take 0.5 s to generate in Release and ten times that
// under ASan, past libFuzzer's one-second timeout per input (which is there to find work
// out of proportion to the input), and each sweep point costs a scenario load.
// REQUIRES: called before any document is loaded, while the process has one thread.
void UseFuzzingInputLimits();

// Sets one limit from "NAME=N" (the command line's --limit), N an integer >= 1. An unknown
// name (the message lists the known ones) or a bad number is an InvalidArgument.
// REQUIRES: called before any document is loaded, while the process has one thread.
Status SetInputLimit(std::string_view assignment);

// The limits' names, as --limit takes them.
std::vector<std::string> InputLimitNames();

// " (raise it with --limit NAME=N)": the tail of every message about a limit.
std::string RaiseHint(std::string_view name);

// A count for a message: "4.2e+08" past a million, else the integer.
std::string FormatCount(double count);

// Restores the defaults (tests that set limits put them back).
void ResetInputLimits();

}  // namespace migsim::io
