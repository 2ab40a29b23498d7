#pragma once
// Output files not yet published, and the directories made for them, removed when the
// process is interrupted (SIGINT, SIGTERM, SIGHUP) so that an interrupted command leaves
// neither temporary files nor part of an output set behind.
//
// The signal handler may only call async-signal-safe functions: it walks a fixed table of
// paths (unlink, rmdir) and re-raises the signal with its default action, so the process
// still dies of it (the shell sees 130 for Ctrl-C). Changes to the table and the renames
// that publish a set run "held": a signal arriving meanwhile, on any thread, is deferred
// until the hold ends, so a set is published whole or not at all.

#include <string>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP (those not ignored already), and
// ignores SIGXFSZ, so that a write past a file-size limit (ulimit -f) fails with EFBIG,
// reported as an error, instead of killing the process with temporary files left. Called
// once, at the start of main.
void InstallOutputCleanup();

// Removes every pending output now, for a process that is about to end without unwinding
// (std::terminate's handler, which exits at once): nothing half-written stays. After it no
// signal handler removes anything and no set may be published. Async-signal-safe.
void RemovePendingOutputsBeforeExit();

// The temporary files and new directories of one output set, owned by one thread. What
// is still pending when it is destroyed (a failure) is removed.
class PendingOutputs {
 public:
  PendingOutputs() = default;
  PendingOutputs(const PendingOutputs&) = delete;
  PendingOutputs& operator=(const PendingOutputs&) = delete;
  ~PendingOutputs();

  // Creates `dir` and its missing ancestors, each registered for removal (if still empty)
  // should the set not be published. IoError naming `dir`.
  Status MakeDirectories(const std::string& dir);

  // Creates a new file of a unique name beside `target` (".<name>.XXXXXX.tmp", as
  // mkstemps), registered for removal; returns its descriptor and sets `*path`. IoError
  // naming `target`.
  Result<int> CreateTemporary(const std::string& target, std::string* path);

  // Renames each (temporary, target) in order with signals held: all of them, or, when a
  // rename fails, the error naming its target (the temporaries left are removed). Afterwards
  // nothing is pending: the directories made stay.
  Status Publish(const std::vector<std::pair<std::string, std::string>>& renames);

 private:
  std::vector<size_t> slots_;  // this set's entries in the table, in creation order
};

}  // namespace migsim
