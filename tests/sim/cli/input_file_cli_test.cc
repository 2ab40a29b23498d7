// Every input migsim reads, from every command, goes through the one bounded reader: a
// device, a FIFO, a directory, a huge or a non-UTF-8 file ends the command at once with
// exit 2, one message naming the file, and nothing written. Each run is bounded in time
// (test::RunMigsim): a hang fails the test.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;
using test::Outcome;
using test::RunMigsim;
using test::ScratchDir;

constexpr int kSeconds = 30;  // a refusal takes milliseconds; a hang would be forever

std::string NotRegular(const std::string& path, const std::string& kind) {
  return path + ": not a regular file (" + kind +
         "); migsim reads scenarios, traces and configs from regular files";
}

// A scratch directory with a FIFO nothing writes to, "fifo".
struct Inputs {
  ScratchDir dir{"cli-input"};
  std::string fifo = dir.Path("fifo");
  Inputs() { REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0); }
};

// Runs `args`, expecting exit 2, in time, with exactly the one line "migsim: <message>".
void ExpectRefused(const std::string& args, const std::string& message) {
  INFO("migsim " << args);
  const Outcome r = RunMigsim(args, kSeconds);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 2);
  CHECK(r.output == "migsim: " + message + "\n");
}

TEST_CASE(
    "run and validate refuse a device, a FIFO, a directory, a 2 GiB and a non-UTF-8 file "
    "at once, writing nothing",
    "[cli][input-file]") {
  const Inputs in;
  const std::string huge = in.dir.Write("huge.json", "");
  fs::resize_file(huge, uint64_t{2} << 30);  // sparse: no disk
  const std::string latin1 = in.dir.Write("latin1.json", "{\"name\": \"caf\xE9\"}");
  const std::string out = in.dir.Path("out");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/dev/zero", NotRegular("/dev/zero", "a character device")},
      {in.fifo, NotRegular(in.fifo, "a FIFO")},
      {in.dir.path().string(), NotRegular(in.dir.path().string(), "a directory")},
      {huge, huge + ": larger than the input limit of 1 GiB (2147483648 bytes)"},
      {latin1, latin1 + ":line 1: not valid UTF-8 (byte 0xe9 at byte offset 13)"},
  };
  for (const auto& [path, message] : cases) {
    ExpectRefused("run " + path + " --out " + out, message);
    ExpectRefused("validate " + path, message);
    CHECK_FALSE(fs::exists(out));
  }
  ExpectRefused("run " + in.dir.Path("none.json"),
                in.dir.Path("none.json") + ": cannot read file: No such file or directory");
}

// A scenario of `members` (top-level JSON members) where the one $ is replaced by `path`.
std::string ScenarioNaming(const std::string& members, const std::string& path) {
  std::string text = R"({"name": "t", "description": "d", )" + members + "}";
  text.replace(text.find('$'), 1, path);
  return text;
}

TEST_CASE("a scenario naming a device, a FIFO or a directory as an input exits 2 at that field",
          "[cli][input-file]") {
  const Inputs in;
  const std::string p4d = R"("cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}}, )";
  const std::vector<std::pair<std::string, std::string>> fields = {
      {R"("cluster": {"nodes": {"a": {"openb_nodes": "$"}}}, "workloads": {})",
       "/cluster/nodes/a/openb_nodes"},
      {p4d + R"("workloads": {"w": {"kind": "Trace", "openb_pods": "$"}})",
       "/workloads/w/openb_pods"},
      {p4d + R"("workloads": {"w": {"kind": "Trace", "pods": "$", "templates": {"t": {}}}})",
       "/workloads/w/pods"},
      {R"("cluster": {"nodes": {"a": {"type": "p4d.24xlarge",
          "mig": {"config": "c", "mig_parted": "$"}}}}, "workloads": {})",
       "/cluster/nodes/a/mig/mig_parted"},
      {p4d + R"("workloads": {"w": {"kind": "Arrivals", "count": 1, "rate_per_s": 1,
          "template": {}, "run_time": {"distribution": "empirical", "csv": "$"}}})",
       "/workloads/w/run_time/csv"},
  };
  const std::vector<std::pair<std::string, std::string>> targets = {
      {"/dev/zero", "a character device"},
      {in.fifo, "a FIFO"},
      {in.dir.path().string(), "a directory"}};
  const std::string out = in.dir.Path("out");
  for (const auto& [members, pointer] : fields) {
    for (const auto& [target, kind] : targets) {
      const std::string scenario = in.dir.Write("s.json", ScenarioNaming(members, target));
      ExpectRefused("run " + scenario + " -q --out " + out,
                    scenario + ":" + pointer + ": " + NotRegular(target, kind));
      CHECK_FALSE(fs::exists(out));
    }
  }
}

TEST_CASE("sweep, plan, calibrate, merge and openb refuse a FIFO at once", "[cli][input-file]") {
  const Inputs in;
  const std::string fifo_error = NotRegular(in.fifo, "a FIFO");
  for (const char* command : {"sweep", "plan", "calibrate"}) {
    ExpectRefused(std::string(command) + " " + in.fifo, fifo_error);
  }
  const std::string sweep =
      in.dir.Write("sw.json", R"({"name": "s", "scenario": "fifo", "points": [{}]})");
  ExpectRefused("sweep " + sweep, sweep + ":/scenario: " + fifo_error);
  const std::string plan =
      in.dir.Write("p.json", R"({"name": "p", "description": "d", "scenario": "fifo", "pool": "a",
                    "configurations": {"c": {}}, "slo": {"max_pending": 0}, "max_nodes": 2})");
  ExpectRefused("plan " + plan, plan + ":/scenario: " + fifo_error);
  const std::string shard = in.dir.Path("sweep-shard-0-of-1.csv");
  REQUIRE(::mkfifo(shard.c_str(), 0600) == 0);
  ExpectRefused("merge " + in.dir.path().string(), NotRegular(shard, "a FIFO"));
  ExpectRefused("openb -q --data " + in.dir.path().string() + " --nodes " + in.fifo, fifo_error);
}

}  // namespace
}  // namespace migsim
