#pragma once
// The shared openb data (the Alibaba trace CSVs) for the tests that need it. Those test
// cases are tagged [.][openb-data]: hidden from the main run, and registered by
// tests/CMakeLists.txt one per CTest test with SKIP_RETURN_CODE 77, so that without the
// data CTest reports them skipped rather than passed.

#include <string>

namespace migsim::test {

// $MIGSIM_OPENB_DIR when set (as `migsim openb` reads it), else ../shared/data/openb
// beside the checkout; ends with '/'.
std::string OpenbDataDir();

// OpenbDataDir() when it holds the GPU-node list and the default pod list. Otherwise
// prints why and ends the process with exit code 77 (CTest: skipped).
// REQUIRES: called from a test case tagged [.][openb-data], which runs in its own process.
std::string OpenbDataDirOrSkip();

}  // namespace migsim::test
