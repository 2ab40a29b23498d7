// The one bounded reader of input files: what it reads, what it refuses and how it says so.
// Each case runs under an alarm: a read that blocks (a FIFO, a device) ends the test
// process with SIGALRM, a failure, instead of hanging the suite.
#include "sim/io/input_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "sim/io/utf8.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;
using test::ScratchDir;

constexpr char kRegularOnly[] = "; migsim reads scenarios, traces and configs from regular files";

// Ends the process if the test case is still running after `seconds`.
class Deadline {
 public:
  explicit Deadline(unsigned seconds) { ::alarm(seconds); }
  ~Deadline() { ::alarm(0); }
};

std::string Error(const std::string& path, InputLimits limits = {}) {
  Result<std::string> text = ReadInputFile(path, limits);
  REQUIRE_FALSE(text.ok());
  return text.status().ToString();
}

TEST_CASE("an input file is read whole, byte for byte", "[io][input-file]") {
  const Deadline deadline(10);
  const ScratchDir dir("input-file");
  const std::string text = "\xEF\xBB\xBF{\"name\": \"caf\xC3\xA9 \xF0\x9F\x9A\x80\"}\r\n";
  Result<std::string> read = ReadInputFile(dir.Write("a.json", text));
  REQUIRE(read.ok());
  CHECK(read.value() == text);
  Result<std::string> empty = ReadInputFile(dir.Write("empty.csv", ""));
  REQUIRE(empty.ok());
  CHECK(empty.value().empty());
  // Past one read's buffer, and through a symbolic link.
  const std::string big(200'000, 'x');
  fs::create_symlink(dir.Write("big.csv", big), dir.path() / "link.csv");
  Result<std::string> linked = ReadInputFile(dir.Path("link.csv"));
  REQUIRE(linked.ok());
  CHECK(linked.value() == big);
}

TEST_CASE("a file that cannot be opened keeps the system's reason", "[io][input-file]") {
  const Deadline deadline(10);
  const ScratchDir dir("input-file");
  CHECK(Error(dir.Path("missing.json")) ==
        dir.Path("missing.json") + ": cannot read file: No such file or directory");
  const std::string file = dir.Write("f.json", "{}");
  CHECK(Error(file + "/x.json") == file + "/x.json: cannot read file: Not a directory");
  fs::create_symlink("loop", dir.path() / "loop");
  CHECK(Error(dir.Path("loop")) ==
        dir.Path("loop") + ": cannot read file: Too many levels of symbolic links");
  ::chmod(file.c_str(), 0);
  if (::access(file.c_str(), R_OK) == 0) {
    WARN("running as root, which reads any file: the permission check is not exercised");
  } else {
    CHECK(Error(file) == file + ": cannot read file: Permission denied");
  }
}

TEST_CASE("a directory, a FIFO and a device are refused at once, naming what they are",
          "[io][input-file]") {
  const Deadline deadline(10);
  const ScratchDir dir("input-file");
  CHECK(Error(dir.path().string()) ==
        dir.path().string() + ": not a regular file (a directory)" + kRegularOnly);
  // Nothing writes to the FIFO: opening it for reading would wait for a writer forever.
  const std::string fifo = dir.Path("fifo.json");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(Error(fifo) == fifo + ": not a regular file (a FIFO)" + kRegularOnly);
  // Reading /dev/zero never ends; /dev/null would read as an empty file.
  CHECK(Error("/dev/zero") ==
        std::string("/dev/zero: not a regular file (a character device)") + kRegularOnly);
  CHECK(Error("/dev/null") ==
        std::string("/dev/null: not a regular file (a character device)") + kRegularOnly);
  // A link to one is what it points to.
  fs::create_symlink("/dev/zero", dir.path() / "zero.csv");
  CHECK(Error(dir.Path("zero.csv")) ==
        dir.Path("zero.csv") + ": not a regular file (a character device)" + kRegularOnly);
}

TEST_CASE("a file larger than the limit is refused by its size, before a byte is read",
          "[io][input-file]") {
  const Deadline deadline(10);
  const ScratchDir dir("input-file");
  // Sparse: costs no disk, and reading it would take seconds and 2 GiB of memory.
  const std::string huge = dir.Write("huge.csv", "");
  fs::resize_file(huge, uint64_t{2} << 30);
  CHECK(Error(huge) == huge + ": larger than the input limit of 1 GiB (2147483648 bytes)");
  const std::string eleven = dir.Write("eleven.csv", "0123456789\n");
  CHECK(Error(eleven, {.max_bytes = 10}) ==
        eleven + ": larger than the input limit of 10 bytes (11 bytes)");
  CHECK(ReadInputFile(eleven, {.max_bytes = 11}).ok());  // the limit itself is allowed
}

TEST_CASE("a file whose size the system does not report is still cut at the limit",
          "[io][input-file]") {
  const Deadline deadline(10);
  // /proc files report size 0 and hold more: only the bounded read catches them.
  struct stat info;
  REQUIRE(::stat("/proc/self/maps", &info) == 0);
  REQUIRE(info.st_size == 0);
  CHECK(Error("/proc/self/maps", {.max_bytes = 64}) ==
        "/proc/self/maps: larger than the input limit of 64 bytes (more than 64 bytes when read)");
  CHECK(ReadInputFile("/proc/self/maps").ok());
}

TEST_CASE("text that is not UTF-8 is refused at the line and byte offset of the first bad byte",
          "[io][input-file]") {
  const Deadline deadline(10);
  const ScratchDir dir("input-file");
  const std::string latin1 = dir.Write("latin1.csv", "name\nok\ncaf\xE9\n");
  CHECK(Error(latin1) == latin1 + ":line 3: not valid UTF-8 (byte 0xe9 at byte offset 11)");
  const std::string utf16 = dir.Write("utf16.json", std::string("\xFF\xFE{\0}\0", 6));
  CHECK(Error(utf16) == utf16 + ":line 1: not valid UTF-8 (byte 0xff at byte offset 0)");
  CHECK(ReadInputFile(latin1).status().code() == StatusCode::kParseError);
}

TEST_CASE("UTF-8 is checked sequence by sequence: overlong forms, surrogates and truncations fail",
          "[io][input-file]") {
  CHECK(FirstInvalidUtf8("plain ASCII") == std::string_view::npos);
  CHECK(FirstInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x9A\x80") == std::string_view::npos);
  CHECK(FirstInvalidUtf8("ab\xC0\xAF") == 2);         // overlong '/'
  CHECK(FirstInvalidUtf8("a\xED\xA0\x80") == 1);      // a UTF-16 surrogate
  CHECK(FirstInvalidUtf8("a\xF4\x90\x80\x80") == 1);  // past U+10FFFF
  CHECK(FirstInvalidUtf8("abc\xE2\x82") == 3);        // truncated at the end
  CHECK(FirstInvalidUtf8("\xC3\xA9\x80") == 2);       // a lone continuation byte
  CHECK(FirstInvalidUtf8("\xC3(") == 0);              // a lead byte without its tail
  CHECK(IsValidUtf8(""));
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

// Runs ReadStandardInput with `text` piped into standard input, which is restored after.
Result<std::string> ReadPiped(const std::string& text, InputLimits limits = {}) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  const int saved = ::dup(STDIN_FILENO);
  REQUIRE(::dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
  ::close(fds[0]);
  Result<std::string> read = ReadStandardInput("stdin", limits);
  REQUIRE(::dup2(saved, STDIN_FILENO) == STDIN_FILENO);
  ::close(saved);
  return read;
}

}  // namespace

TEST_CASE("standard input is read within the files' limits and named in messages",
          "[io][input-file]") {
  const Result<std::string> ok = ReadPiped("{\"kind\": \"List\"}\n");
  REQUIRE(ok.ok());
  CHECK(ok.value() == "{\"kind\": \"List\"}\n");
  CHECK(ReadPiped("0123456789", {.max_bytes = 4}).status().ToString() ==
        "stdin: larger than the input limit of 4 bytes (more than 4 bytes when read)");
  CHECK(ReadPiped("a\nb\xff").status().ToString() ==
        "stdin:line 2: not valid UTF-8 (byte 0xff at byte offset 3)");
}

}  // namespace migsim
