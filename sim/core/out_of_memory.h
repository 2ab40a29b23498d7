#pragma once
// Memory exhausted while doing something a user can tell apart ("parsing s.json"): a
// std::bad_alloc that names it. Whatever catches std::bad_alloc still catches it; the CLI
// prints "migsim: out of memory while <activity>" and exits 1 (sim/cli/uncaught.h).

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace migsim {

class OutOfMemory : public std::bad_alloc {
 public:
  explicit OutOfMemory(std::string activity) : activity_(std::move(activity)) {}
  const char* what() const noexcept override { return "out of memory"; }
  const std::string& activity() const { return activity_; }

 private:
  std::string activity_;
};

// What NamingOutOfMemory is doing on this thread now (null: nothing named), for a
// std::terminate handler: memory exhausted in a destructor (nlohmann::json frees a deep
// document through a stack it allocates) ends the process there, with no OutOfMemory.
inline thread_local const std::string* out_of_memory_activity = nullptr;

// Runs `work`; memory exhausted there (a std::bad_alloc, or a std::length_error: a size
// past what a container can hold) is rethrown as OutOfMemory(activity), unless it already
// names what it was doing.
template <typename Work>
decltype(auto) NamingOutOfMemory(const std::string& activity, Work&& work) {
  struct Naming {
    const std::string* outer;
    ~Naming() { out_of_memory_activity = outer; }
  } naming{std::exchange(out_of_memory_activity, &activity)};
  try {
    return std::forward<Work>(work)();
  } catch (const OutOfMemory&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw OutOfMemory(activity);
  } catch (const std::length_error&) {
    throw OutOfMemory(activity);
  }
}

}  // namespace migsim
