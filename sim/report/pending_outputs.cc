#include "sim/report/pending_outputs.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>
#include <unordered_map>

namespace migsim {
namespace {

namespace fs = std::filesystem;

// The table the signal handler walks: a path (owned, allocated with new[]) per slot in
// use, null otherwise, in blocks that are only ever added (while held), never moved or
// freed, so that the handler never meets a reallocation.
struct Slot {
  std::atomic<char*> path{nullptr};
  std::atomic<bool> is_dir{false};
};
constexpr size_t kBlockSlots = 1024;
struct Block {
  Slot slots[kBlockSlots];
  std::atomic<Block*> next{nullptr};
};
Block g_first;
size_t g_high = 0;           // slots at or above are unused; changed only while held
std::vector<size_t> g_free;  // released slots below g_high; changed only while held

// While held: slot `i`, its block added if need be.
Slot& At(size_t i) {
  Block* block = &g_first;
  for (size_t b = i / kBlockSlots; b > 0; --b) {
    if (block->next.load() == nullptr) block->next.store(new Block);
    block = block->next.load();
  }
  return block->slots[i % kBlockSlots];
}

enum State { kIdle, kHeld, kDying };
std::atomic<int> g_state{kIdle};
std::atomic<int> g_deferred{0};  // a signal that arrived while held

static_assert(std::atomic<char*>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

// Async-signal-safe: unlink, rmdir and atomic loads only. Files first, then the
// directories, deepest first: a pass removes those already empty, until one removes none
// (slots are reused, so their order says nothing about depth).
void RemoveAllPending() {
  for (Block* b = &g_first; b != nullptr; b = b->next.load()) {
    for (Slot& slot : b->slots) {
      const char* path = slot.path.load();
      if (path != nullptr && !slot.is_dir.load()) ::unlink(path);
    }
  }
  for (bool removed = true; removed;) {
    removed = false;
    for (Block* b = &g_first; b != nullptr; b = b->next.load()) {
      for (Slot& slot : b->slots) {
        const char* path = slot.path.load();
        if (path != nullptr && slot.is_dir.load() && ::rmdir(path) == 0) removed = true;
      }
    }
  }
}

extern "C" void OnSignal(int sig) {
  int expected = kIdle;
  if (g_state.compare_exchange_strong(expected, kDying)) {
    RemoveAllPending();
    // Die of the signal, as without the handler. Inside a handler the signal is blocked,
    // so it is delivered when the handler returns; outside one, at once.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    return;
  }
  if (expected == kHeld) {
    g_deferred.store(sig);  // the holder removes and re-raises when its hold ends
    return;
  }
  for (;;) ::pause();  // another thread is removing the files and will end the process
}

// Holds the handler off (see the header) while in scope; mutually exclusive between
// threads. Once the process is dying it never returns.
class Hold {
 public:
  Hold() {
    for (;;) {
      int expected = kIdle;
      if (g_state.compare_exchange_strong(expected, kHeld)) return;
      if (expected == kDying) {
        for (;;) ::pause();
      }
      std::this_thread::yield();
    }
  }
  Hold(const Hold&) = delete;
  Hold& operator=(const Hold&) = delete;
  ~Hold() {
    g_state.store(kIdle);
    if (const int sig = g_deferred.exchange(0); sig != 0) OnSignal(sig);
  }
};

// While held.
size_t TakeSlot() {
  if (!g_free.empty()) {
    const size_t slot = g_free.back();
    g_free.pop_back();
    return slot;
  }
  At(g_high);
  return g_high++;
}

// While held: forgets the path (the handler no longer sees it) and frees it.
void ReleaseSlot(size_t slot) {
  char* path = At(slot).path.exchange(nullptr);
  delete[] path;
  g_free.push_back(slot);
}

char* Copy(const std::string& s) {
  char* copy = new char[s.size() + 1];
  std::memcpy(copy, s.c_str(), s.size() + 1);
  return copy;
}

// The process's umask, read once: new outputs get the mode a plain open would give them
// (0666 & ~umask), not mkstemp's 0600.
mode_t Umask() {
  static const mode_t mask = [] {
    const mode_t m = ::umask(0);
    ::umask(m);
    return m;
  }();
  return mask;
}

}  // namespace

void InstallOutputCleanup() {
  Umask();  // read while the process has one thread
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal the caller ignores stays ignored (nohup; a shell's background job and
    // SIGINT), as the process would otherwise not have died of it.
    struct sigaction before {};
    if (::sigaction(sig, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &action, nullptr);
  }
  ::signal(SIGXFSZ, SIG_IGN);
}

void RemovePendingOutputsBeforeExit() {
  // Whatever the state: the process ends right after, so a hold (this thread's, if a
  // destructor terminated mid-publish) will never end.
  g_state.store(kDying);
  RemoveAllPending();
}

PendingOutputs::~PendingOutputs() {
  if (slots_.empty()) return;
  const Hold hold;
  for (auto it = slots_.rbegin(); it != slots_.rend(); ++it) {
    const char* path = At(*it).path.load();
    if (At(*it).is_dir.load()) {
      ::rmdir(path);  // only if empty: another run may have written into it meanwhile
    } else {
      ::unlink(path);
    }
    ReleaseSlot(*it);
  }
}

Status PendingOutputs::MakeDirectories(const std::string& dir) {
  std::error_code ec;
  const fs::path target = fs::absolute(dir, ec).lexically_normal();
  std::vector<fs::path> missing;
  for (fs::path p = target; !p.empty() && !fs::exists(p, ec) && p != p.parent_path();
       p = p.parent_path()) {
    missing.push_back(p);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    const Hold hold;
    const size_t slot = TakeSlot();
    if (::mkdir(it->c_str(), 0777) != 0) {
      const int error = errno;
      g_free.push_back(slot);
      if (error == EEXIST && fs::is_directory(*it, ec)) continue;  // made by another run
      return Status::IoError("cannot create directory: " + std::string(std::strerror(error)),
                             {dir, ""});
    }
    At(slot).is_dir.store(true);
    At(slot).path.store(Copy(it->string()));
    slots_.push_back(slot);
  }
  if (!fs::is_directory(target, ec)) {
    return Status::IoError("cannot create directory: not a directory", {dir, ""});
  }
  return Status::Ok();
}

Result<int> PendingOutputs::CreateTemporary(const std::string& target, std::string* path) {
  const fs::path t(target);
  const fs::path dir = t.parent_path().empty() ? fs::path(".") : t.parent_path();
  std::string name = (dir / ("." + t.filename().string() + ".XXXXXX.tmp")).string();
  const Hold hold;
  const size_t slot = TakeSlot();
  const int fd = ::mkostemps(name.data(), 4, O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    g_free.push_back(slot);
    return Status::IoError("cannot write: " + std::string(std::strerror(error)), {target, ""});
  }
  ::fchmod(fd, 0666 & ~Umask());
  At(slot).is_dir.store(false);
  At(slot).path.store(Copy(name));
  slots_.push_back(slot);
  *path = name;
  return fd;
}

Status PendingOutputs::Publish(const std::vector<std::pair<std::string, std::string>>& renames) {
  const Hold hold;
  std::unordered_map<std::string, size_t> slot_of;  // the temporaries' slots
  for (const size_t slot : slots_) {
    if (!At(slot).is_dir.load()) slot_of.emplace(At(slot).path.load(), slot);
  }
  for (size_t i = 0; i < renames.size(); ++i) {
    const auto& [temporary, target] = renames[i];
    if (::rename(temporary.c_str(), target.c_str()) == 0) continue;
    const Status failed =
        Status::IoError("cannot write: " + std::string(std::strerror(errno)), {target, ""});
    // The temporaries renamed are gone: forget them; the rest are removed on destruction.
    std::unordered_map<size_t, bool> renamed;
    for (size_t j = 0; j < i; ++j) {
      if (const auto it = slot_of.find(renames[j].first); it != slot_of.end()) {
        renamed[it->second] = true;
        ReleaseSlot(it->second);
      }
    }
    std::erase_if(slots_, [&](size_t slot) { return renamed.count(slot) > 0; });
    return failed;
  }
  for (const size_t slot : slots_) ReleaseSlot(slot);  // the directories made stay
  slots_.clear();
  return Status::Ok();
}

}  // namespace migsim
