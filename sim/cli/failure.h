#pragma once
// How a subcommand fails: one line on stderr, then the exit code `migsim --help` promises.

#include "sim/core/status.h"

namespace migsim {

constexpr int kInternalError = 1;  // a run failed or an output could not be written
constexpr int kBadInput = 2;       // bad input or usage

// Prints "migsim: <status>" on stderr and returns `code`, for `return Fail(s, kBadInput);`.
int Fail(const Status& status, int code);

}  // namespace migsim
