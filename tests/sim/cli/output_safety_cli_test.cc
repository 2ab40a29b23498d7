// Outputs never destroy anything (issue 25): no command replaces a FIFO, a device, a link or
// one of its own inputs; two runs into one directory publish whole sets; an interrupted or
// size-limited run leaves no temporary file and no partial set. The binary runs as a child
// process, as a user would run it.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;
using test::Outcome;
using test::RunMigsim;
using test::ScratchDir;

std::string Source(const std::string& path) { return std::string(MIGSIM_SOURCE_DIR) + "/" + path; }

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every file under `dir` (relative path -> contents), links and FIFOs by their kind.
std::map<std::string, std::string> Tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(e.path(), dir).string();
    if (e.is_symlink()) {
      files[name] = "link to " + fs::read_symlink(e.path()).string();
    } else if (e.is_fifo()) {
      files[name] = "fifo";
    } else if (e.is_regular_file()) {
      files[name] = Read(e.path());
    }
  }
  return files;
}

// The names under `dir` that end in ".tmp".
std::vector<std::string> Temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().filename().string().ends_with(".tmp")) found.push_back(e.path().string());
  }
  return found;
}

// Starts migsim with `args` (no shell), its output to `log`; with a file-size limit of
// `max_file_bytes` when it is not 0.
pid_t Start(const std::vector<std::string>& args, const std::string& log,
            rlim_t max_file_bytes = 0) {
  std::vector<std::string> argv{MIGSIM_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c_argv;
  for (std::string& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    if (max_file_bytes > 0) {
      const struct rlimit limit { max_file_bytes, max_file_bytes };
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    ::execv(c_argv[0], c_argv.data());
    ::_exit(127);
  }
  return pid;
}

// The child's wait status, after at most two minutes (then it is killed: a failure).
int Wait(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      FAIL("migsim did not end in two minutes");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return status;
}

// A scenario, written to `name`, of `pods` one-second pods of one GPU on one 8-GPU node
// (one variant, "base"): about 0.2 s for 30,000 pods with --out in Release.
std::string ManyPods(const ScratchDir& dir, int pods, const std::string& name = "many.json") {
  return dir.Write(
      name, R"({"name":"many","description":"d","cluster":{"nodes":{"n":{"type":"p4d.24xlarge"}}},)"
            R"("job_classes":{"j":{"run_s":1}},"workloads":{"w":{"kind":"Pod","count":)" +
                std::to_string(pods) +
                R"(,"template":{"job_class":"j","resources":{"nvidia.com/gpu":1}}}}})");
}

// migsim `args` exits 2 with `message` in its output.
void ExpectRefused(const std::string& args, const std::string& message) {
  INFO("migsim " << args);
  const Outcome r = RunMigsim(args);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains(message));
}

std::string Import(const std::string& out) {
  const std::string dir = Source("scenarios/snapshot/");
  return "import --nodes " + dir + "nodes.json --pods " + dir + "pods.json --out " + out;
}

TEST_CASE(
    "import refuses a FIFO, a symbolic link or a dangling link as --out and leaves it as "
    "it was",
    "[cli][outputs]") {
  const ScratchDir dir("cli-out-kinds");
  const std::string fifo = dir.Path("fifo"), link = dir.Path("link"), target = dir.Path("t.json"),
                    dangling = dir.Path("dangling");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  dir.Write("t.json", "mine\n");
  fs::create_symlink(target, link);
  fs::create_symlink(dir.Path("nowhere.json"), dangling);
  const std::map<std::string, std::string> before = Tree(dir.path());

  Outcome r = RunMigsim(Import(fifo));
  CHECK(r.exit_code == 2);
  CHECK(r.output == "migsim: --out " + fifo +
                        ": is not a regular file (a FIFO); outputs are replaced by a rename, "
                        "which would replace it\n");
  r = RunMigsim(Import(link));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--out " + link + ": is a symbolic link (to " + target +
                                       "); outputs are replaced by a rename, which would turn "
                                       "the link into a file: give the link's target instead"));
  r = RunMigsim(Import(dangling));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--out " + dangling + ": is a symbolic link"));
  // A device is refused by the same check (tests/sim/report/output_dir_test.cc looks at
  // /dev/null's path): not run here, where a regression would replace the device.
  CHECK(Tree(dir.path()) == before);
  // The link's target is an ordinary output.
  CHECK(RunMigsim(Import(target)).exit_code == 0);
  CHECK(fs::is_symlink(link));
  CHECK(Read(target).starts_with("{"));
}

TEST_CASE(
    "sweep, merge, plan and openb refuse a FIFO or a link among their --out files before "
    "running",
    "[cli][outputs]") {
  const ScratchDir dir("cli-out-commands");
  const std::string out = dir.Path("out");
  fs::create_directories(out);
  REQUIRE(::mkfifo(dir.Path("out/sweep.csv").c_str(), 0600) == 0);
  dir.Write("elsewhere.csv", "mine\n");
  fs::create_symlink(dir.Path("elsewhere.csv"), dir.Path("out/plan.csv"));
  fs::create_symlink(dir.Path("elsewhere.csv"), dir.Path("out/final_state.csv"));
  const std::map<std::string, std::string> before = Tree(dir.path());
  ExpectRefused("sweep -q " + Source("scenarios/sweeps/superres-nodes.json") + " --out " + out,
                "--out " + out + "/sweep.csv: is not a regular file (a FIFO)");
  // merge: real shards in their own directory, sweep.csv into `out`.
  REQUIRE(RunMigsim("sweep -q " + Source("scenarios/sweeps/superres-nodes.json") +
                    " --shard 0/1 --out " + dir.Path("shards"))
              .exit_code == 0);
  ExpectRefused("merge " + dir.Path("shards") + " --out " + out,
                "--out " + out + "/sweep.csv: is not a regular file (a FIFO)");
  ExpectRefused(
      "plan -q " + Source("scenarios/plans/capacity-inference-mix.plan.json") + " --out " + out,
      "--out " + out + "/plan.csv: is a symbolic link (to " + dir.Path("elsewhere.csv") + ")");
  ExpectRefused("openb -q --data " + Source("tests/golden/openb-small") +
                    " --trace small --policy fgd --seeds 1 --out " + out,
                "--out " + out + "/final_state.csv: is a symbolic link");
  fs::remove_all(dir.path() / "shards");
  CHECK(Tree(dir.path()) == before);
}

TEST_CASE("no output may overwrite an input of the same run, however it is spelled",
          "[cli][outputs]") {
  const ScratchDir dir("cli-out-inputs");
  const std::string scenario = dir.Write("s.json", Read(Source("scenarios/56-superres.json")));
  fs::create_directories(dir.path() / "out");
  const std::string summary = dir.Write("out/summary.json", Read(scenario));
  fs::create_hard_link(scenario, dir.Path("hard.json"));
  fs::create_symlink(dir.path(), dir.Path("again"));
  const std::string nodes = dir.Write("n.json", Read(Source("scenarios/snapshot/nodes.json")));
  const std::map<std::string, std::string> before = Tree(dir.path());
  const std::string input = "is an input of this run (" + scenario + ")";
  ExpectRefused("run -q " + scenario + " --report " + scenario,
                "--report " + scenario + ": " + input);
  ExpectRefused("run -q " + scenario + " --trace " + dir.Path("./s.json"),
                "--trace " + dir.Path("./s.json") + ": " + input);
  ExpectRefused("run -q " + scenario + " --trace " + dir.Path("again/s.json"), input);
  ExpectRefused("run -q " + scenario + " --report " + dir.Path("hard.json"), input);
  ExpectRefused(
      "run -q " + summary + " --out " + dir.Path("out"),
      "--out " + dir.Path("out/summary.json") + ": is an input of this run (" + summary + ")");
  ExpectRefused("run -q " + scenario + " --report " + dir.Path("r.html") + " --trace " +
                    dir.Path("again/r.html"),
                "--trace " + dir.Path("again/r.html") + ": is also written by --report (" +
                    dir.Path("r.html") + ")");
  // A file the scenario names: the pod list CSV of the golden pod-list scenario.
  fs::copy(Source("tests/golden/pod-list"), dir.path() / "pod-list");
  ExpectRefused(
      "run -q " + dir.Path("pod-list/scenario.json") + " --report " + dir.Path("pod-list/pods.csv"),
      "--report " + dir.Path("pod-list/pods.csv") + ": is an input of this run");
  // import's inputs, one of them through standard input.
  const std::string pods = Source("scenarios/snapshot/pods.json");
  ExpectRefused("import --nodes " + nodes + " --pods " + pods + " --out " + dir.Path("./n.json"),
                "--out " + dir.Path("./n.json") + ": is an input of this run (" + nodes + ")");
  ExpectRefused("import --nodes - --pods " + pods + " --out " + nodes + " < " + nodes,
                "--out " + nodes + ": is an input of this run (stdin)");
  fs::remove_all(dir.path() / "pod-list");
  CHECK(Tree(dir.path()) == before);
}

TEST_CASE("two runs writing to one --out at once each publish a whole set", "[cli][outputs]") {
  const ScratchDir dir("cli-out-race");
  // The same file names (one variant, "base"), different contents, a few MB of them: before
  // the fix, runs sharing fixed temporary names failed or mixed their files within a few
  // trials.
  const std::string scenario[2] = {ManyPods(dir, 30000, "a.json"), ManyPods(dir, 30001, "b.json")};
  std::map<std::string, std::string> alone[2];
  for (int i = 0; i < 2; ++i) {
    const std::string out = dir.Path("alone-" + std::to_string(i));
    REQUIRE(RunMigsim("run -q " + scenario[i] + " --out " + out).exit_code == 0);
    alone[i] = Tree(out);
  }
  REQUIRE(alone[0] != alone[1]);
  for (int trial = 0; trial < 6; ++trial) {
    const std::string out = dir.Path("shared-" + std::to_string(trial));
    const pid_t a = Start({"run", "-q", scenario[0], "--out", out}, dir.Path("a.log"));
    const pid_t b = Start({"run", "-q", scenario[1], "--out", out}, dir.Path("b.log"));
    const int status_a = Wait(a), status_b = Wait(b);
    INFO("trial " << trial << ": " << Read(dir.Path("a.log")) << Read(dir.Path("b.log")));
    CHECK((WIFEXITED(status_a) && WEXITSTATUS(status_a) == 0));
    CHECK((WIFEXITED(status_b) && WEXITSTATUS(status_b) == 0));
    const std::map<std::string, std::string> shared = Tree(out);
    CHECK((shared == alone[0] || shared == alone[1]));
  }
  CHECK(Temporaries(dir.path()).empty());
}

// Whether a name under `dir` ends in ".tmp".
bool HasTemporary(const fs::path& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().ends_with(".tmp")) return true;
  }
  return false;
}

TEST_CASE("a run interrupted by SIGINT or SIGTERM leaves no temporary file and no output",
          "[cli][outputs]") {
  const ScratchDir dir("cli-out-signal");
  // 50,000 pods: about 0.6 s in Release, the last tenth writing some 20 MB of outputs.
  const std::string scenario = ManyPods(dir, 50000);
  struct Case {
    int sig;
    bool while_writing;  // else mid-simulation
  };
  for (const Case c : {Case{SIGINT, false}, Case{SIGINT, true}, Case{SIGTERM, true}}) {
    INFO("signal " << c.sig << (c.while_writing ? " while writing" : " while simulating"));
    const std::string out = dir.Path("out/deeper");
    const pid_t pid = Start({"run", scenario, "-q", "--out", out, "--report", dir.Path("r.html"),
                             "--trace", dir.Path("t.json")},
                            dir.Path("log"));
    if (c.while_writing) {
      // As soon as a temporary output exists: before the fix, .summary.json.tmp and a
      // published --out set without the trace were left behind.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
      while (!HasTemporary(dir.path()) && std::chrono::steady_clock::now() < deadline &&
             ::waitpid(pid, nullptr, WNOHANG) == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      REQUIRE(HasTemporary(dir.path()));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    REQUIRE(::kill(pid, c.sig) == 0);
    const int status = Wait(pid);
    INFO(Read(dir.Path("log")));
    // Killed by the signal, as without a handler (the shell shows 128 + its number).
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == c.sig));
    CHECK(Temporaries(dir.path()).empty());
    CHECK_FALSE(fs::exists(dir.path() / "out"));
    CHECK_FALSE(fs::exists(dir.path() / "r.html"));
    CHECK_FALSE(fs::exists(dir.path() / "t.json"));
  }
}

TEST_CASE("a run over the file-size limit says so, exits 1 and publishes none of its outputs",
          "[cli][outputs]") {
  const ScratchDir dir("cli-out-efbig");
  const std::string scenario = ManyPods(dir, 2000);  // a trace of a few hundred KiB
  const std::string out = dir.Path("out");
  const pid_t pid = Start({"run", scenario, "-q", "--out", out, "--trace", dir.Path("t.json")},
                          dir.Path("log"), 64 * 1024);
  const int status = Wait(pid);
  const std::string log = Read(dir.Path("log"));
  INFO(log);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 1));
  CHECK_THAT(log, Catch::Contains("cannot write: File too large (the file-size limit, ulimit -f)"));
  CHECK(Temporaries(dir.path()).empty());
  CHECK_FALSE(fs::exists(out));  // summary.json fits the limit, but the set is not whole
  CHECK_FALSE(fs::exists(dir.path() / "t.json"));
}

TEST_CASE("merge refuses a real shard cut short, naming the file and the point",
          "[cli][outputs][sweep]") {
  const ScratchDir dir("cli-out-merge");
  const std::string sweep = Source("scenarios/sweeps/superres-nodes.json");
  for (const char* shard : {"0/2", "1/2"}) {
    REQUIRE(RunMigsim("sweep " + sweep + " -q --shard " + shard + " --out " + dir.Path("s"))
                .exit_code == 0);
  }
  const Outcome whole = RunMigsim("sweep " + sweep + " -q --out " + dir.Path("whole"));
  REQUIRE(whole.exit_code == 0);
  REQUIRE(RunMigsim("merge " + dir.Path("s")).exit_code == 0);
  CHECK(Read(dir.Path("s/sweep.csv")) == Read(dir.Path("whole/sweep.csv")));
  fs::remove(dir.Path("s/sweep.csv"));
  const std::string shard = dir.Path("s/sweep-shard-1-of-2.csv");
  const std::string text = Read(shard);
  std::ofstream(shard, std::ios::binary) << text.substr(0, text.rfind('\n', text.size() - 2) + 1);
  const Outcome r = RunMigsim("merge " + dir.Path("s"));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains(shard + ": holds ") &&
                           Catch::Contains("(the file was cut or edited): point "));
  CHECK_FALSE(fs::exists(dir.Path("s/sweep.csv")));
}

}  // namespace
}  // namespace migsim
