#pragma once
// A tiny sweep world shared by the sweep tests (loader, runner, CSV and merge).

#include <filesystem>
#include <optional>
#include <string>

#include "sim/io/sweep_json.h"
#include "sim/study/sweep/sweep_run.h"

namespace migsim::test {

// One node of a one-GPU type at $0.5/h, three 10 s pods of one GPU each; two variants.
extern const char* const kSweepScenario;

// Two node counts x two seeds = 4 points, 8 runs, plus one listed point.
extern const char* const kSmallSweep;

// A sweep of kSweepScenario; `members` are its other top-level members.
std::string SweepText(const std::string& members);

// SweepText(members) parsed as s.json; the test fails when it does not load.
SweepFile LoadSweep(const std::string& members);

// An empty directory under the system's temporary directory, named after `name`.
std::filesystem::path SweepTempDir(const std::string& name);

SweepRunOptions SweepThreads(int threads, std::optional<Shard> shard = std::nullopt);

}  // namespace migsim::test
