#pragma once
// A policy plugin's shared library, loaded from exactly the file that was checked.
//
// The dynamic loader searches its paths (LD_LIBRARY_PATH, the ld.so cache, the system's
// directories) for a name without a slash, and hands back an object already loaded under a
// matching name or soname: "libm.so.6" would be the system's libm, not the plugin beside the
// scenario. So the path is made absolute before dlopen sees it, and after loading, the
// object the loader returned must be the very file that was checked (same device and
// inode), not an older copy still loaded under that path in this process (a library
// replaced on disk while a copy that cannot be unloaded is resident); anything else is
// refused.

#include <string>

#include "sim/core/status.h"

namespace migsim {

class PluginLibrary {
 public:
  // `path` made absolute against the working directory. InvalidArgument naming the path
  // when it does not exist, is not a regular file, cannot be loaded, or the loader returned
  // another file than the one checked.
  static Result<PluginLibrary> Open(const std::string& path);

  PluginLibrary(PluginLibrary&& other) noexcept;
  PluginLibrary& operator=(PluginLibrary&& other) noexcept;
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;
  ~PluginLibrary();

  // The symbol the library defines, or nullptr.
  void* Symbol(const char* name) const;

 private:
  explicit PluginLibrary(void* handle) : handle_(handle) {}
  void* handle_ = nullptr;
};

}  // namespace migsim
