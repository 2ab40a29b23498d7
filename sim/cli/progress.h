#pragma once
// The progress line of the commands that run many simulations (sweep, openb): on stderr,
// and only on a terminal, so pipes and CI logs stay clean.

#include <string>

#include "sim/core/sim_time.h"
#include "sim/study/parallel_for.h"

namespace migsim {

// Whether progress is shown: not --quiet, and stderr is a terminal.
bool ShowsProgress(bool quiet);

// "\r[done/total] <what>", rewritten after each run; a null function when !show.
// REQUIRES: `what` outlives the function (a string literal).
ProgressFn TerminalProgress(bool show, const char* what);

// How far a run is in simulated time: "t=3.2 h of 24 h, 13%"; "t=3.2 h" without a
// horizon (SimTime::Max()). Seconds under an hour, hours above.
std::string SimulatedProgress(SimTime now, SimTime horizon);

}  // namespace migsim
