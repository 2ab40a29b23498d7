#pragma once
// What in a scenario draws at random, read from its structure (not by running it twice):
// the sources a run's seed decides. A seed given to a scenario with none changes nothing,
// and the commands say so (SeedChangesNothing) instead of showing identical runs as if
// they were evidence.

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/scenario.h"

namespace migsim {

// One line per source a run of `scenario` may draw from, in a fixed order, e.g.
// "Arrivals workload 'requests'", "fault process 'xid-79'". Empty: every run of the
// scenario is the same whatever its seed. A source that may not be reached in a given
// run (a preemption that never happens) still counts: "may draw" is what is known
// without running.
std::vector<std::string> RandomSources(const Scenario& scenario);

// The notice for seeds given to `file` whose variants (the `names` among them; all when
// empty) draw nothing at random, or "" when one of them does. `seeds` as the user wrote
// them, e.g. "seed 7" or "seeds 1, 2": "seed 7 changes nothing: scenario 'trace-replay'
// draws nothing at random (a trace replay, fixed pods, no fault process, ...)".
std::string SeedChangesNothing(const ScenarioFile& file, const std::string& seeds,
                               const std::vector<std::string>& names = {});

}  // namespace migsim
