#include "sim/cli/uncaught.h"

#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>

#include "sim/cli/failure.h"
#include "sim/core/check.h"
#include "sim/core/out_of_memory.h"
#include "sim/report/pending_outputs.h"

namespace migsim {
namespace {

// Nothing here allocates but what the exception already holds: with memory exhausted,
// printing must not need more.
void Print(const std::exception_ptr& failure, const char* command) {
  try {
    std::rethrow_exception(failure);
  } catch (const OutOfMemory& e) {
    std::fprintf(stderr, "migsim: out of memory while %s\n", e.activity().c_str());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "migsim: out of memory while %s\n", command);
  } catch (const std::length_error& e) {
    std::fprintf(stderr, "migsim: out of memory while %s (%s)\n", command, e.what());
  } catch (const InternalError& e) {
    std::fprintf(stderr, "migsim: internal error: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "migsim: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "migsim: internal error: an exception of unknown type\n");
  }
}

[[noreturn]] void Terminated() {
  if (const std::exception_ptr failure = std::current_exception()) {
    Print(failure, out_of_memory_activity != nullptr ? out_of_memory_activity->c_str()
                                                     : "running migsim");
  } else {
    std::fputs("migsim: internal error: terminated\n", stderr);
  }
  std::fflush(stderr);
  RemovePendingOutputsBeforeExit();  // _Exit runs no destructor: the set is removed here
  std::_Exit(kInternalError);
}

}  // namespace

int ExitOnUncaught(const std::exception_ptr& failure, const std::string& command) {
  Print(failure, command.c_str());
  return kInternalError;
}

void ExitOnTerminate() { std::set_terminate(Terminated); }

}  // namespace migsim
