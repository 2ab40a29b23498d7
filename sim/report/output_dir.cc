#include "sim/report/output_dir.h"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace migsim {
namespace fs = std::filesystem;

namespace {

Status WriteOne(const fs::path& path, const std::string& contents) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (out) out.close();
  if (!out) {
    // ofstream does not always set errno (e.g. for a directory): say what we know.
    const std::string why = errno != 0 ? std::strerror(errno) : "the stream failed";
    return Status::IoError("cannot write: " + why, {path.string(), ""});
  }
  return Status::Ok();
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

}  // namespace

Status WriteFiles(const std::string& dir,
                  const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  const fs::path existing = NearestExisting(dir);
  // On failure: no temporary file stays, nor the directories this call created.
  std::vector<fs::path> temps;
  const auto clean_up = [&] {
    std::error_code ignored;
    for (const fs::path& t : temps) fs::remove(t, ignored);
    // Spelled as NearestExisting spells `existing`, so the walk stops there.
    for (fs::path p = fs::absolute(dir, ignored).lexically_normal();
         !p.empty() && p != existing && p != p.parent_path(); p = p.parent_path()) {
      if (!fs::exists(p, ignored)) continue;  // never created: creation stopped above it
      if (!fs::is_empty(p, ignored) || !fs::remove(p, ignored)) break;
    }
  };
  fs::create_directories(dir, ec);
  if (ec) {
    clean_up();
    return Status::IoError("cannot create directory: " + ec.message(), {dir, ""});
  }
  for (const auto& [name, contents] : files) {
    temps.push_back(fs::path(dir) / ("." + name + ".tmp"));
    if (Status s = WriteOne(temps.back(), contents); !s.ok()) {
      clean_up();
      return Status::IoError(s.message(), {(fs::path(dir) / name).string(), ""});
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    const fs::path target = fs::path(dir) / files[i].first;
    fs::rename(temps[i], target, ec);
    if (ec) {
      temps.erase(temps.begin(), temps.begin() + static_cast<std::ptrdiff_t>(i));
      clean_up();
      return Status::IoError("cannot write: " + ec.message(), {target.string(), ""});
    }
  }
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  const fs::path target(path);
  const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp");
  if (Status s = WriteOne(temp, contents); !s.ok()) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return Status::IoError(s.message(), {path, ""});  // the user's path, not the temporary's
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    fs::remove(temp, ec);
    return Status::IoError("cannot write: " + ec.message(), {path, ""});
  }
  return Status::Ok();
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
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) return Unusable(flag, path, "is a directory");
  // The file is replaced by a rename: a device or a FIFO would be replaced, not written.
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    return Unusable(flag, path, "is not a regular file");
  }
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  if (!fs::is_directory(parent, ec)) {
    return Unusable(flag, path, "no directory " + parent.string());
  }
  if (!CanCreateIn(parent)) return Unusable(flag, path, "cannot write in " + parent.string());
  return Status::Ok();
}

}  // namespace migsim
