#include "sim/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "sim/core/digest.h"
#include "sim/io/utf8.h"

namespace migsim {
namespace {

// Closes the descriptor on every return path.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

Status CannotRead(const std::string& path, int error) {
  return Status::IoError("cannot read file: " + std::string(std::strerror(error)), {path, ""});
}

// Names what the file is instead.
Status NotRegular(const std::string& path, mode_t mode) {
  return Status::IoError("not a regular file (" + std::string(FileKind(mode)) +
                             "); migsim reads scenarios, traces and configs from regular files",
                         {path, ""});
}

// "1 GiB", "64 KiB", or "1000 bytes" when no binary unit divides `bytes`.
std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"GiB", "MiB", "KiB"};
  for (int i = 0; i < 3; ++i) {
    const uint64_t unit = uint64_t{1} << (30 - 10 * i);
    if (bytes >= unit && bytes % unit == 0) {
      return std::to_string(bytes / unit) + " " + kUnits[i];
    }
  }
  return std::to_string(bytes) + " bytes";
}

Status TooLarge(const std::string& path, uint64_t limit, const std::string& size) {
  return Status::IoError("larger than the input limit of " + FormatBytes(limit) + " (" + size + ")",
                         {path, ""});
}

// Up to limit + 1 bytes of `fd`: one more than allowed tells that the file is too large
// without reading the rest of it.
Result<std::string> ReadBounded(int fd, const std::string& path, uint64_t limit,
                                uint64_t expected) {
  std::string text;
  text.reserve(static_cast<size_t>(std::min(expected, limit)));
  char buffer[1 << 16];
  while (text.size() <= limit) {
    const size_t want =
        static_cast<size_t>(std::min<uint64_t>(sizeof buffer, limit + 1 - text.size()));
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return CannotRead(path, errno);
    if (n == 0) return text;
    text.append(buffer, static_cast<size_t>(n));
  }
  return TooLarge(path, limit, "more than " + std::to_string(limit) + " bytes when read");
}

// The first invalid sequence, located by line and byte offset.
Status CheckUtf8(const std::string& path, const std::string& text) {
  const size_t bad = FirstInvalidUtf8(text);
  if (bad == std::string::npos) return Status::Ok();
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(bad), '\n');
  return Status::ParseError(NotUtf8Message(text, bad), {path, "line " + std::to_string(line)});
}

// The registry behind FilesRead.
std::mutex& FilesReadMutex() {
  static std::mutex mutex;
  return mutex;
}
std::vector<FileRead>& FilesReadList() {
  static std::vector<FileRead> files;
  return files;
}

void Remember(const std::string& path, bool from_stdin, const struct stat& info,
              const std::string& text) {
  const FileRead read{path, from_stdin, static_cast<uint64_t>(info.st_dev),
                      static_cast<uint64_t>(info.st_ino), Fnv1a64(text)};
  const std::lock_guard<std::mutex> lock(FilesReadMutex());
  std::vector<FileRead>& files = FilesReadList();
  for (FileRead& f : files) {
    if (f.device == read.device && f.inode == read.inode) {
      f = read;  // the same file again, or a new one where a read one was deleted
      return;
    }
  }
  files.push_back(read);
}

}  // namespace

const char* FileKind(uint32_t mode) {
  return S_ISREG(mode)    ? "a regular file"
         : S_ISDIR(mode)  ? "a directory"
         : S_ISFIFO(mode) ? "a FIFO"
         : S_ISCHR(mode)  ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISSOCK(mode) ? "a socket"
         : S_ISLNK(mode)  ? "a symbolic link"
                          : "an unknown kind of file";
}

std::vector<FileRead> FilesRead() {
  std::vector<FileRead> files;
  {
    const std::lock_guard<std::mutex> lock(FilesReadMutex());
    files = FilesReadList();
  }
  // A file read, then deleted, may leave its inode to a new file: keep those still named
  // by their path (standard input by its descriptor).
  std::erase_if(files, [](const FileRead& f) {
    struct stat info;
    const int found = f.from_stdin ? ::fstat(STDIN_FILENO, &info) : ::stat(f.path.c_str(), &info);
    return found != 0 || static_cast<uint64_t>(info.st_dev) != f.device ||
           static_cast<uint64_t>(info.st_ino) != f.inode;
  });
  return files;
}

// Refused by the path's type before opening, since opening some devices has effects; and
// again by the descriptor's, so the file checked is the file read even if the path changed
// in between. O_NONBLOCK so that opening a FIFO without a writer returns at once.
Result<std::string> ReadInputFile(const std::string& path, InputLimits limits) {
  struct stat info;
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    return NotRegular(path, info.st_mode);
  }
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return CannotRead(path, errno);
  const Descriptor file(fd);
  if (::fstat(file.get(), &info) != 0) return CannotRead(path, errno);
  if (!S_ISREG(info.st_mode)) return NotRegular(path, info.st_mode);
  const auto size = static_cast<uint64_t>(info.st_size);
  if (size > limits.max_bytes) {
    return TooLarge(path, limits.max_bytes, std::to_string(size) + " bytes");
  }
  Result<std::string> text = ReadBounded(file.get(), path, limits.max_bytes, size);
  if (!text.ok()) return text;
  if (Status s = CheckUtf8(path, text.value()); !s.ok()) return s;
  Remember(path, false, info, text.value());
  return text;
}

Result<std::string> ReadStandardInput(const std::string& label, InputLimits limits) {
  if (::isatty(STDIN_FILENO) == 1) {
    return Status::IoError("is a terminal; pipe the input in (kubectl get pods -A -o json | ...)",
                           {label, ""});
  }
  Result<std::string> text = ReadBounded(STDIN_FILENO, label, limits.max_bytes, 0);
  if (!text.ok()) return text;
  if (Status s = CheckUtf8(label, text.value()); !s.ok()) return s;
  struct stat info;
  if (::fstat(STDIN_FILENO, &info) == 0 && S_ISREG(info.st_mode)) {
    Remember(label, true, info, text.value());
  }
  return text;
}

}  // namespace migsim
