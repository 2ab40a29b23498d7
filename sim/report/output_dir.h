#pragma once
// Writing result files so that a failure leaves nothing half-written.

#include <string>
#include <utility>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// Creates `dir` if needed and writes each (file name, contents) into it. Every file is
// first written beside its target under a temporary name and renamed only when all of
// them were written, so readers never see a partial set. IoError naming the path on
// failure (temporary files are removed).
Status WriteFiles(const std::string& dir,
                  const std::vector<std::pair<std::string, std::string>>& files);

// Writes one file at `path` (its directory must exist), through a temporary file beside
// it and a rename, so a reader never sees it half-written.
Status WriteFileAtomically(const std::string& path, const std::string& contents);

// Checked before a command computes anything, so that a bad output path fails at once
// and leaves nothing behind: `dir` is an existing directory, or its nearest existing
// ancestor is a writable directory (WriteFiles creates the rest). InvalidArgument naming
// `flag` and the path otherwise.
Status CheckOutputDir(const std::string& flag, const std::string& dir);
// The same for one output file: not a directory, in an existing writable directory.
Status CheckOutputFile(const std::string& flag, const std::string& path);

}  // namespace migsim
