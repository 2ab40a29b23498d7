#include "policies/plugin/plugin_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <utility>

namespace migsim {
namespace {

struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileId&) const = default;
};

FileId IdOf(const struct stat& st) { return {st.st_dev, st.st_ino}; }

// An object PluginLibrary loaded that is, or may still be, in the process: the file it
// came from (its path as loaded, its identity) and how many PluginLibrary hold it. Kept
// after the last one closes it while the loader keeps the object (a C++ plugin with unique
// symbols is never unloaded), so that a file replaced on disk is not taken for it.
struct Resident {
  std::string path;
  FileId file;
  int users = 0;
};

// Plugins are loaded and closed under this lock, so that the table and the loader agree
// when runs on several threads load plugins.
std::mutex& LoaderMutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<void*, Resident>& Residents() {
  static auto* residents = new std::map<void*, Resident>;  // outlives every static
  return *residents;
}

std::string Named(const std::string& path) { return "policy library '" + path + "'"; }

// Why the object `handle` is not the file `checked` (opened at `path`), or "" when it is.
std::string Mismatch(void* handle, const std::string& path, const FileId& checked) {
  struct link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr) {
    return Named(path) + ": the dynamic loader does not say which file it loaded";
  }
  struct stat loaded {};
  if (stat(map->l_name, &loaded) != 0 || !(IdOf(loaded) == checked)) {
    return Named(path) + " is not the file the dynamic loader returned ('" +
           std::string(map->l_name) + "'); refused";
  }
  const auto it = Residents().find(handle);
  if (it != Residents().end() && !(it->second.file == checked)) {
    return Named(path) +
           " changed on disk since this process loaded it, and the copy loaded cannot be "
           "unloaded (e.g. a C++ plugin with unique symbols): restart the process to load the "
           "new one";
  }
  return "";
}

}  // namespace

Result<PluginLibrary> PluginLibrary::Open(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return Status::InvalidArgument(Named(path) + ": " + ec.message());
  // Absolute, so with a slash: dlopen then loads this path and searches nowhere.
  const std::string file = absolute.lexically_normal().string();
  // O_NONBLOCK: a FIFO is refused by its type below, never waited on.
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) {
      return Status::InvalidArgument(Named(file) + " does not exist");
    }
    return Status::InvalidArgument(Named(file) + ": " + std::strerror(error));
  }
  struct stat st {};
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  // The descriptor stays open until the library is checked: the inode cannot be reused.
  std::lock_guard lock(LoaderMutex());
  void* handle = regular ? dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  const char* load_error = regular && handle == nullptr ? dlerror() : nullptr;
  const std::string mismatch = handle != nullptr ? Mismatch(handle, file, IdOf(st)) : "";
  close(fd);
  if (!regular) return Status::InvalidArgument(Named(file) + " is not a regular file");
  if (handle == nullptr) {
    return Status::InvalidArgument("cannot load policy library: " +
                                   std::string(load_error != nullptr ? load_error : file));
  }
  if (!mismatch.empty()) {
    dlclose(handle);
    return Status::InvalidArgument(mismatch);
  }
  Resident& resident = Residents()[handle];
  resident.path = file, resident.file = IdOf(st);
  ++resident.users;
  return PluginLibrary(handle);
}

PluginLibrary::PluginLibrary(PluginLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)) {}

PluginLibrary& PluginLibrary::operator=(PluginLibrary&& other) noexcept {
  std::swap(handle_, other.handle_);
  return *this;
}

PluginLibrary::~PluginLibrary() {
  if (handle_ == nullptr) return;
  std::lock_guard lock(LoaderMutex());
  dlclose(handle_);
  const auto it = Residents().find(handle_);
  if (it == Residents().end() || --it->second.users > 0) return;
  // The loader may keep the object (unique symbols, another holder): still there when the
  // path, without loading anything, gives this very handle.
  void* probe = dlopen(it->second.path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (probe != nullptr) dlclose(probe);
  if (probe != handle_) Residents().erase(it);
}

void* PluginLibrary::Symbol(const char* name) const { return dlsym(handle_, name); }

}  // namespace migsim
