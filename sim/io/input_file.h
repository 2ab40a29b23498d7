#pragma once
// Reading an input file whole into memory, bounded. Every input migsim reads — scenario,
// sweep and plan files, the CSVs and YAML they name (openb node and pod lists, pod-list and
// trace CSVs, empirical arrival CSVs, mig-parted configs), measurement CSVs and sweep shard
// CSVs — goes through ReadInputFile, so that /dev/zero, a FIFO, a directory or a huge file
// is refused at once with one message instead of hanging or exhausting memory.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// 1 GiB: the largest input we know, an openb pod list, is 0.7 MB, so real inputs fit
// with more than a thousandfold room, while a parsed file of this size still fits in the
// memory of the machines migsim runs on. Fixed: no input has needed more.
inline constexpr uint64_t kMaxInputBytes = uint64_t{1} << 30;

struct InputLimits {
  uint64_t max_bytes = kMaxInputBytes;  // largest file accepted, in bytes; below 2^63
};

// The whole text of the file at `path`. It must be a regular file (or a symbolic link to
// one) of at most `limits.max_bytes` bytes holding UTF-8 text. Never blocks (a FIFO with
// no writer is refused, not waited on) and reads at most max_bytes + 1 bytes, even from a
// file that grows meanwhile or whose size the system does not report (/proc files).
//
// Errors, as Status::ToString():
//  - IoError "p: cannot read file: No such file or directory" (or the system's reason:
//    "Permission denied", ...);
//  - IoError "p: not a regular file (a directory); migsim reads scenarios, traces and
//    configs from regular files" (or a FIFO, a character device, a block device, a socket);
//  - IoError "p: larger than the input limit of 1 GiB (2147483648 bytes)";
//  - ParseError "p:line 3: not valid UTF-8 (byte 0xff at byte offset 17)", the line and
//    offset (both of the whole file, the line counted from 1) of the first bad sequence.
Result<std::string> ReadInputFile(const std::string& path, InputLimits limits = {});

// The whole of standard input (`migsim import --pods -`), with the same bound and UTF-8
// check, named `label` in messages ("stdin"). A terminal is refused rather than waited on:
// the input is meant to be piped or redirected.
//  - IoError "stdin: is a terminal; pipe the input in (kubectl get pods -A -o json | ...)";
//  - IoError "stdin: larger than the input limit of 1 GiB (more than ... bytes when read)";
//  - ParseError "stdin:line 3: not valid UTF-8 (...)".
Result<std::string> ReadStandardInput(const std::string& label, InputLimits limits = {});

// A file this process read successfully: which file (device and inode, so that spellings,
// links and hard links of one file compare equal) and a digest of the text read.
struct FileRead {
  std::string path;         // as last read (the label, "stdin", for standard input)
  bool from_stdin = false;  // read by ReadStandardInput
  uint64_t device = 0, inode = 0;
  uint64_t digest = 0;  // FNV-1a 64 of the text
};

// Every regular file ReadInputFile and ReadStandardInput (when standard input is a
// redirected regular file) returned and that its path (or standard input) still names,
// once each, in the order first read. The commands compare their outputs with them, so
// that no output replaces an input of the same run, the files a scenario names included.
// Thread-safe.
std::vector<FileRead> FilesRead();

// "a directory", "a FIFO", "a character device", "a block device", "a socket", "a symbolic
// link", "a regular file" or "an unknown kind of file", for a stat(2) st_mode.
const char* FileKind(uint32_t st_mode);

}  // namespace migsim
