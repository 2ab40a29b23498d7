#pragma once
// MIGSIM_CHECK: an invariant of the engine, checked in every build type. A broken
// invariant is a bug in migsim, not bad input: it aborts with the condition and place
// rather than corrupting the run (bad input is a Status, see status.h).

#include <cstdio>
#include <cstdlib>

#define MIGSIM_CHECK(cond, msg)                                                       \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "migsim: internal error: %s (%s) at %s:%d\n", msg, #cond, \
                   __FILE__, __LINE__);                                               \
      std::abort();                                                                   \
    }                                                                                 \
  } while (false)
