#pragma once
// Writing result files so that nothing is destroyed and a failure or an interruption
// leaves nothing half-written: output paths are checked before any work, and each
// command's outputs are published together, as one set.

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// One file of an output set.
struct OutputFile {
  std::string path;
  std::string contents;
  // When set, the file's contents instead: everything written to this stream (a spool the
  // command filled as it ran, e.g. std::tmpfile()), copied a piece at a time.
  std::FILE* spool = nullptr;
};

// Writes a set of output files, all or none. `dirs` (and their missing ancestors) are
// created first. Each file is written to a temporary of a unique name beside its target
// (".<name>.XXXXXX.tmp"), so that concurrent runs never share one; when all are written
// the temporaries are renamed over their targets, holding an exclusive flock(2) on each
// target directory meanwhile, so that two migsim runs publishing into one directory do so
// one set after the other and the directory holds one run's whole set, never a mix. A
// signal (pending_outputs.h) or a failure — a full disk, a file-size limit (EFBIG) —
// before the renames removes the temporaries and the directories made: nothing is
// published. IoError naming the target file otherwise.
Status PublishOutputs(const std::vector<std::string>& dirs, const std::vector<OutputFile>& files);

// `files` (name, contents) as OutputFiles in `dir`.
std::vector<OutputFile> FilesIn(const std::string& dir,
                                const std::vector<std::pair<std::string, std::string>>& files);

// PublishOutputs({dir}, FilesIn(dir, files)).
Status WriteFiles(const std::string& dir,
                  const std::vector<std::pair<std::string, std::string>>& files);

// PublishOutputs of one file, whose directory must exist.
Status WriteFileAtomically(const std::string& path, const std::string& contents);

// Checked before a command computes anything, so that a bad output path fails at once
// and leaves nothing behind: `dir` is an existing directory (or a link to one, written
// into), or its nearest existing ancestor is a directory where a file can be created
// (WriteFiles creates the rest). InvalidArgument naming `flag` and the path otherwise.
Status CheckOutputDir(const std::string& flag, const std::string& dir);
// The same for one output file: in an existing directory where a file can be created,
// and acceptable to CheckOutputTargets.
Status CheckOutputFile(const std::string& flag, const std::string& path);

// A file a command will write, and the flag that named it (or its directory).
struct OutputTarget {
  std::string flag;
  std::string path;
};

// `names` in `dir`, all named by `flag`.
std::vector<OutputTarget> TargetsIn(const std::string& flag, const std::string& dir,
                                    const std::vector<std::string>& names);

// The whole set of a command's outputs, checked once its inputs are read and before it
// computes anything. Each target, if it exists, must be a regular file: never a symbolic
// link (a rename would turn the link into a file; migsim asks for the link's target
// instead), a directory, a device, a FIFO or a socket. No target may be a file the
// process has read (FilesRead, input_file.h: the real file — device and inode — however
// it is spelled, through links and hard links), and no two targets may be the same file.
// InvalidArgument "--report s.json: is an input of this run (s.json): ..." otherwise.
Status CheckOutputTargets(const std::vector<OutputTarget>& targets);

}  // namespace migsim
