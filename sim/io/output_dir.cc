#include "sim/io/output_dir.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace migsim {
namespace fs = std::filesystem;

namespace {

Status WriteOne(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (out) out.close();
  if (!out) {
    return Status::IoError(std::string("cannot write: ") + std::strerror(errno),
                           {path.string(), ""});
  }
  return Status::Ok();
}

}  // namespace

Status WriteFiles(const std::string& dir,
                  const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create directory: " + ec.message(), {dir, ""});
  std::vector<fs::path> temps;
  for (const auto& [name, contents] : files) {
    fs::path temp = fs::path(dir) / ("." + name + ".tmp");
    temps.push_back(temp);
    Status s = WriteOne(temp, contents);
    if (!s.ok()) {
      for (const fs::path& t : temps) fs::remove(t, ec);
      return s;
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    fs::rename(temps[i], fs::path(dir) / files[i].first, ec);
    if (ec) return Status::IoError("cannot rename: " + ec.message(), {temps[i].string(), ""});
  }
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  const fs::path target(path);
  const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp");
  if (Status s = WriteOne(temp, contents); !s.ok()) return s;
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    fs::remove(temp, ec);
    return Status::IoError("cannot write: " + ec.message(), {path, ""});
  }
  return Status::Ok();
}

}  // namespace migsim
