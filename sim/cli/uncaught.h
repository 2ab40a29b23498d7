#pragma once
// What ends migsim when a command does not return its exit code: a broken invariant of
// migsim (InternalError, sim/core/check.h), memory exhausted (std::bad_alloc, a
// std::length_error from a size past any container) or any other exception. Each is one
// line on stderr and exit 1 (kInternalError), never an abort.

#include <exception>
#include <string>

namespace migsim {

// Prints the line for `failure` ("migsim: internal error: ...", "migsim: out of memory
// while <activity>"; `command` names the activity when the exception does not, e.g.
// "running 'migsim run'") and returns kInternalError.
int ExitOnUncaught(const std::exception_ptr& failure, const std::string& command);

// std::terminate's handler from now on: the same line for the exception that reached it
// (one thrown where nothing may throw: a destructor, a noexcept function) and exit 1, at
// once (std::_Exit: nothing else runs). Without an exception: "terminated", exit 1.
void ExitOnTerminate();

}  // namespace migsim
