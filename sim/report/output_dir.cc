#include "sim/report/output_dir.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <tuple>
#include <vector>

#include "sim/io/input_file.h"
#include "sim/report/pending_outputs.h"

namespace migsim {
namespace fs = std::filesystem;

namespace {

// The system's reason, with a hint for the one a user can lift.
std::string Reason(int error) {
  std::string why = std::strerror(error);
  if (error == EFBIG) why += " (the file-size limit, ulimit -f)";
  return why;
}

Status CannotWrite(const std::string& path, int error) {
  return Status::IoError("cannot write: " + Reason(error), {path, ""});
}

// Writes all of `contents` to `fd` and closes it; errno's reason on failure.
// Writes all `size` bytes; 0, or the errno of the failure.
int WriteAll(int fd, const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    done += static_cast<size_t>(n);
  }
  return 0;
}

Status WriteAndClose(int fd, const std::string& contents, const std::string& target) {
  if (const int error = WriteAll(fd, contents.data(), contents.size()); error != 0) {
    ::close(fd);
    return CannotWrite(target, error);
  }
  if (::close(fd) != 0) return CannotWrite(target, errno);
  return Status::Ok();
}

// Copies all of `spool` to `fd` and closes `fd`, in pieces (a spool may be larger than
// memory).
Status CopyAndClose(int fd, std::FILE* spool, const std::string& target) {
  if (std::fflush(spool) != 0 || std::fseek(spool, 0, SEEK_SET) != 0) {
    ::close(fd);
    return CannotWrite(target, errno);
  }
  std::vector<char> piece(size_t{1} << 20);
  while (const size_t n = std::fread(piece.data(), 1, piece.size(), spool)) {
    if (const int error = WriteAll(fd, piece.data(), n); error != 0) {
      ::close(fd);
      return CannotWrite(target, error);
    }
  }
  const bool failed = std::ferror(spool) != 0;
  if (::close(fd) != 0 || failed) return CannotWrite(target, failed ? EIO : errno);
  return Status::Ok();
}

// Closes the descriptors, releasing their locks, on every return path.
class DirectoryLocks {
 public:
  DirectoryLocks() = default;
  DirectoryLocks(const DirectoryLocks&) = delete;
  DirectoryLocks& operator=(const DirectoryLocks&) = delete;
  ~DirectoryLocks() {
    for (const int fd : fds_) ::close(fd);
  }

  // An exclusive flock on each directory, in (device, inode) order so that two runs
  // locking overlapping sets cannot deadlock. A file system without flock (some network
  // ones) is published into unlocked: the temporaries' names are still unique.
  void Lock(const std::vector<std::string>& dirs) {
    std::vector<std::tuple<dev_t, ino_t, int>> open;
    for (const std::string& dir : dirs) {
      const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      struct stat info;
      if (fd < 0) continue;
      if (::fstat(fd, &info) != 0) {
        ::close(fd);
        continue;
      }
      const bool seen = std::any_of(open.begin(), open.end(), [&](const auto& o) {
        return std::get<0>(o) == info.st_dev && std::get<1>(o) == info.st_ino;
      });
      if (seen) {
        ::close(fd);
        continue;
      }
      open.emplace_back(info.st_dev, info.st_ino, fd);
    }
    std::sort(open.begin(), open.end());
    for (const auto& [dev, ino, fd] : open) {
      fds_.push_back(fd);
      while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }

 private:
  std::vector<int> fds_;
};

std::string DirectoryOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// The directory, existing or nearest existing ancestor, that a new path would go in.
fs::path NearestExisting(fs::path p) {
  std::error_code ec;
  p = fs::absolute(p, ec).lexically_normal();
  while (!p.empty() && !fs::exists(p, ec) && p != p.parent_path()) p = p.parent_path();
  return p;
}

Status Unusable(const std::string& flag, const std::string& path, const std::string& why) {
  return Status::InvalidArgument(flag + " " + path + ": " + why);
}

// True when a file can be created in `dir`: tried, not inferred from permissions, which
// say yes to root even where nothing can be created (/proc).
bool CanCreateIn(const fs::path& dir) {
  std::string probe = (dir / ".migsim-probe-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

// Why an existing `path` (lstat `info`) cannot be replaced by an output; "" if it can.
std::string CannotReplace(const std::string& path, const struct stat& info) {
  if (S_ISLNK(info.st_mode)) {
    std::error_code ec;
    const fs::path to = fs::read_symlink(path, ec);
    return "is a symbolic link (to " + to.string() +
           "); outputs are replaced by a rename, which would turn the link into a file: give "
           "the link's target instead";
  }
  if (S_ISDIR(info.st_mode)) return "is a directory";
  if (!S_ISREG(info.st_mode)) {
    return "is not a regular file (" + std::string(FileKind(info.st_mode)) +
           "); outputs are replaced by a rename, which would replace it";
  }
  return "";
}

}  // namespace

std::vector<OutputFile> FilesIn(const std::string& dir,
                                const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<OutputFile> in;
  for (const auto& [name, contents] : files) {
    in.push_back({(fs::path(dir) / name).string(), contents});
  }
  return in;
}

Status PublishOutputs(const std::vector<std::string>& dirs, const std::vector<OutputFile>& files) {
  PendingOutputs pending;  // removes what is not published on every failure path
  for (const std::string& dir : dirs) {
    if (Status s = pending.MakeDirectories(dir); !s.ok()) return s;
  }
  std::vector<std::pair<std::string, std::string>> renames;
  std::vector<std::string> targets_dirs;
  for (const OutputFile& file : files) {
    std::string temporary;
    Result<int> fd = pending.CreateTemporary(file.path, &temporary);
    if (!fd.ok()) return fd.status();
    if (Status s = file.spool != nullptr ? CopyAndClose(fd.value(), file.spool, file.path)
                                         : WriteAndClose(fd.value(), file.contents, file.path);
        !s.ok()) {
      return s;
    }
    renames.emplace_back(temporary, file.path);
    targets_dirs.push_back(DirectoryOf(file.path));
  }
  DirectoryLocks locks;
  locks.Lock(targets_dirs);
  // Checked again under the lock: something that appeared since the command's checks
  // (a FIFO, a link) is not replaced either, and then nothing is.
  for (const OutputFile& file : files) {
    struct stat info;
    if (::lstat(file.path.c_str(), &info) != 0) continue;
    if (std::string why = CannotReplace(file.path, info); !why.empty()) {
      return Status::IoError("cannot write: " + why, {file.path, ""});
    }
  }
  return pending.Publish(renames);
}

Status WriteFiles(const std::string& dir,
                  const std::vector<std::pair<std::string, std::string>>& files) {
  return PublishOutputs({dir}, FilesIn(dir, files));
}

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  return PublishOutputs({}, {{path, contents}});
}

Status CheckOutputDir(const std::string& flag, const std::string& dir) {
  if (dir.empty()) return Unusable(flag, "''", "an empty path");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    return Unusable(flag, dir, "exists and is not a directory");
  }
  const fs::path base = NearestExisting(dir);
  if (!fs::is_directory(base, ec)) {
    return Unusable(flag, dir, base.string() + " is not a directory");
  }
  if (!CanCreateIn(base)) return Unusable(flag, dir, "cannot write in " + base.string());
  return Status::Ok();
}

Status CheckOutputFile(const std::string& flag, const std::string& path) {
  if (path.empty()) return Unusable(flag, "''", "an empty path");
  if (Status s = CheckOutputTargets({{flag, path}}); !s.ok()) return s;
  const std::string parent = DirectoryOf(path);
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) return Unusable(flag, path, "no directory " + parent);
  if (!CanCreateIn(parent)) return Unusable(flag, path, "cannot write in " + parent);
  return Status::Ok();
}

std::vector<OutputTarget> TargetsIn(const std::string& flag, const std::string& dir,
                                    const std::vector<std::string>& names) {
  std::vector<OutputTarget> targets;
  for (const std::string& name : names) targets.push_back({flag, (fs::path(dir) / name).string()});
  return targets;
}

Status CheckOutputTargets(const std::vector<OutputTarget>& targets) {
  const std::vector<FileRead> inputs = FilesRead();
  struct Seen {
    const OutputTarget* target;
    fs::path canonical;
    bool exists;
    struct stat info;
  };
  std::vector<Seen> seen;
  for (const OutputTarget& t : targets) {
    Seen s{&t, {}, false, {}};
    s.exists = ::lstat(t.path.c_str(), &s.info) == 0;
    if (s.exists) {
      if (std::string why = CannotReplace(t.path, s.info); !why.empty()) {
        return Unusable(t.flag, t.path, why);
      }
      for (const FileRead& input : inputs) {
        if (input.device == static_cast<uint64_t>(s.info.st_dev) &&
            input.inode == static_cast<uint64_t>(s.info.st_ino)) {
          return Unusable(
              t.flag, t.path,
              "is an input of this run (" + input.path + "); migsim never writes over its inputs");
        }
      }
    }
    std::error_code ec;
    s.canonical = fs::weakly_canonical(fs::absolute(t.path, ec), ec);
    for (const Seen& before : seen) {
      const bool same_file = s.exists && before.exists && s.info.st_dev == before.info.st_dev &&
                             s.info.st_ino == before.info.st_ino;
      if (same_file || (!s.canonical.empty() && s.canonical == before.canonical)) {
        return Unusable(
            t.flag, t.path,
            "is also written by " + before.target->flag + " (" + before.target->path + ")");
      }
    }
    seen.push_back(s);
  }
  return Status::Ok();
}

}  // namespace migsim
