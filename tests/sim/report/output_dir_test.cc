#include "sim/report/output_dir.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/io/input_file.h"
#include "sim/report/pending_outputs.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("migsim-output-dir-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The names in `dir`, hidden ones included.
std::vector<std::string> Entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("a failed write leaves no temporary file and no directory it created", "[io]") {
  const fs::path dir = FreshDir("failed-write");
  const std::string too_long(300, 'x');  // longer than a file name may be
  const Status s = WriteFiles((dir / "new/sub").string(), {{"a.csv", "a\n"}, {too_long, "b\n"}});
  REQUIRE_FALSE(s.ok());
  CHECK(s.location().file == (dir / "new/sub" / too_long).string());
  CHECK(Entries(dir).empty());
  // Creation that stops partway (new/ made, the long name refused) is undone too.
  REQUIRE_FALSE(WriteFiles((dir / "new/./" / too_long).string(), {{"a.csv", "a\n"}}).ok());
  CHECK(Entries(dir).empty());
  fs::remove_all(dir);
}

TEST_CASE("a file that cannot replace its target is reported at the target, nothing published",
          "[io]") {
  const fs::path dir = FreshDir("failed-rename");
  fs::create_directories(dir / "b.csv" / "inside");  // a non-empty directory where b.csv goes
  const Status s = WriteFiles(dir.string(), {{"a.csv", "a\n"}, {"b.csv", "b\n"}});
  REQUIRE_FALSE(s.ok());
  CHECK(s.location().file == (dir / "b.csv").string());
  // No .tmp left, and a.csv, which could have been written, is not: the set is not whole.
  CHECK(Entries(dir) == std::vector<std::string>{"b.csv"});
  fs::remove_all(dir);
}

TEST_CASE("output paths are checked before anything is computed", "[io]") {
  const fs::path dir = FreshDir("check");
  std::ofstream(dir / "file") << "x";
  CHECK(CheckOutputDir("--out", (dir / "new/deeper").string()).ok());
  CHECK(CheckOutputDir("--out", dir.string()).ok());
  CHECK(CheckOutputDir("--out", (dir / "file").string()).ToString() ==
        "--out " + (dir / "file").string() + ": exists and is not a directory");
  CHECK(CheckOutputDir("--out", (dir / "file/below").string()).ToString() ==
        "--out " + (dir / "file/below").string() + ": " + (dir / "file").string() +
            " is not a directory");
  CHECK(CheckOutputFile("--report", (dir / "r.html").string()).ok());
  CHECK(CheckOutputFile("--report", dir.string()).ToString() ==
        "--report " + dir.string() + ": is a directory");
  CHECK(CheckOutputFile("--report", (dir / "no/r.html").string()).ToString() ==
        "--report " + (dir / "no/r.html").string() + ": no directory " + (dir / "no").string());
  fs::remove_all(dir);
}

TEST_CASE("an output that is a link, a FIFO, a device or a directory is refused by its path",
          "[io]") {
  const fs::path dir = FreshDir("kinds");
  std::ofstream(dir / "file") << "x";
  fs::create_symlink(dir / "file", dir / "link");
  fs::create_symlink(dir / "nowhere", dir / "dangling");
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  const auto why = [](const fs::path& path) {
    return CheckOutputTargets({{"--out", path.string()}}).ToString();
  };
  CHECK(CheckOutputTargets({{"--out", (dir / "file").string()}, {"--x", (dir / "new").string()}})
            .ok());
  CHECK(why(dir / "link") == "--out " + (dir / "link").string() + ": is a symbolic link (to " +
                                 (dir / "file").string() +
                                 "); outputs are replaced by a rename, which would turn the link "
                                 "into a file: give the link's target instead");
  CHECK_THAT(why(dir / "dangling"), Catch::Contains(": is a symbolic link (to "));
  CHECK(why(dir / "fifo") == "--out " + (dir / "fifo").string() +
                                 ": is not a regular file (a FIFO); outputs are replaced by a "
                                 "rename, which would replace it");
  // lstat only: the device is never opened.
  CHECK(why("/dev/null") ==
        "--out /dev/null: is not a regular file (a character device); "
        "outputs are replaced by a rename, which would replace it");
  CHECK(why(dir) == "--out " + dir.string() + ": is a directory");
  fs::remove_all(dir);
}

TEST_CASE("an output is compared with the inputs read as a file, not as a spelling", "[io]") {
  const fs::path dir = FreshDir("inputs");
  std::ofstream(dir / "in.json") << "{}";
  fs::create_hard_link(dir / "in.json", dir / "hard.json");
  fs::create_directories(dir / "sub");
  REQUIRE(ReadInputFile((dir / "in.json").string()).ok());
  const std::string input = "is an input of this run (" + (dir / "in.json").string() + ")";
  for (const fs::path& spelling :
       {dir / "in.json", dir / "./in.json", dir / "sub/../in.json", dir / "hard.json"}) {
    INFO(spelling);
    CHECK(CheckOutputTargets({{"--report", spelling.string()}}).ToString() ==
          "--report " + spelling.string() + ": " + input + "; migsim never writes over its inputs");
  }
  // Two outputs that are one file, existing or not.
  CHECK(CheckOutputTargets(
            {{"--report", (dir / "r").string()}, {"--trace", (dir / "sub/../r").string()}})
            .ToString() == "--trace " + (dir / "sub/../r").string() +
                               ": is also written by --report (" + (dir / "r").string() + ")");
  fs::remove_all(dir);
}

TEST_CASE("outputs are published with the mode a plain file would have, nothing else left",
          "[io]") {
  const fs::path dir = FreshDir("mode");
  const mode_t mask = ::umask(022);
  REQUIRE(PublishOutputs({(dir / "a").string()},
                         {{(dir / "a/x.csv").string(), "x\n"}, {(dir / "y.csv").string(), "y\n"}})
              .ok());
  ::umask(mask);
  CHECK((fs::status(dir / "a/x.csv").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
         fs::perms::others_read));
  CHECK(Entries(dir) == std::vector<std::string>{"a", "y.csv"});
  CHECK(Entries(dir / "a") == std::vector<std::string>{"x.csv"});
  fs::remove_all(dir);
}

TEST_CASE("a set of thousands of files is published whole", "[io]") {
  const fs::path dir = FreshDir("thousands");
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 0; i < 2500; ++i) files.emplace_back("f" + std::to_string(i), std::to_string(i));
  REQUIRE(WriteFiles((dir / "out").string(), files).ok());
  CHECK(Entries(dir / "out").size() == 2500);
  fs::remove_all(dir);
}

TEST_CASE("a signal while outputs are pending removes them and the directories made, then kills",
          "[io]") {
  const fs::path dir = FreshDir("signal");
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // the child: pending outputs, then SIGTERM
    InstallOutputCleanup();
    PendingOutputs pending;
    std::string temporary;
    if (!pending.MakeDirectories((dir / "new/deeper").string()).ok()) ::_exit(3);
    const Result<int> fd = pending.CreateTemporary((dir / "new/deeper/x.csv").string(), &temporary);
    if (!fd.ok() || ::write(fd.value(), "x", 1) != 1) ::_exit(4);
    ::raise(SIGTERM);
    ::_exit(5);  // not reached: the handler re-raises with the default action
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM));
  CHECK(Entries(dir).empty());
  fs::remove_all(dir);
}

TEST_CASE("a process ending without unwinding removes its pending outputs first", "[io]") {
  // What std::terminate's handler does before _Exit (sim/cli/uncaught.cc): no destructor
  // runs, so the pending set must be removed explicitly.
  const fs::path dir = FreshDir("terminate");
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    PendingOutputs pending;
    std::string temporary;
    if (!pending.MakeDirectories((dir / "made").string()).ok()) ::_exit(3);
    const Result<int> fd = pending.CreateTemporary((dir / "made/x.csv").string(), &temporary);
    if (!fd.ok() || ::write(fd.value(), "x", 1) != 1) ::_exit(4);
    RemovePendingOutputsBeforeExit();
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  CHECK(Entries(dir).empty());
  fs::remove_all(dir);
}

}  // namespace migsim
