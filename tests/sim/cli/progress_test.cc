// The progress line's text (sim/cli/progress.h): how far a run is in simulated time.
#include "sim/cli/progress.h"

#include <catch2/catch.hpp>

namespace migsim {

TEST_CASE("the progress line shows simulated time of the horizon", "[cli][progress]") {
  CHECK(SimulatedProgress(SimTime::Seconds(3.2 * 3600), SimTime::Seconds(24 * 3600)) ==
        "t=3.2 h of 24 h, 13%");
  CHECK(SimulatedProgress(SimTime::Seconds(90), SimTime::Seconds(600)) == "t=90 s of 600 s, 15%");
  CHECK(SimulatedProgress(SimTime::Seconds(7200), SimTime::Max()) == "t=2 h");
  CHECK(SimulatedProgress(SimTime::Seconds(900), SimTime::Seconds(600)) ==
        "t=900 s of 600 s, 100%");
}

}  // namespace migsim
