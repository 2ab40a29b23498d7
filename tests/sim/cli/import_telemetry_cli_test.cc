// `migsim import --telemetry --jobs`: the example export and snapshot of scenarios/telemetry/
// imported by the executable into a scenario whose simulated runs match the observed ones;
// its report (golden); bad exports exit 2 naming the file and JSON pointer, writing nothing.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sim/io/scenario_json.h"
#include "sim/study/run.h"
#include "tests/sim/io/telemetry/example_export.h"
#include "tests/support/run_migsim.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;
using test::Outcome;
using test::RunMigsim;

const std::string kExample = std::string(MIGSIM_SOURCE_DIR) + "/scenarios/telemetry/";

fs::path TempDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("migsim-import-telemetry-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `migsim import` of the example with `extra` flags, writing `out`.
Outcome ImportExample(const fs::path& out, const std::string& extra) {
  return RunMigsim("import --nodes " + kExample + "nodes.json --pods " + kExample +
                   "pods.json --out " + out.string() + " " + extra);
}

// The output with the example's folder written as "<example>/".
std::string WithoutFolder(std::string text) {
  for (size_t at; (at = text.find(kExample)) != std::string::npos;) {
    text.replace(at, kExample.size(), "<example>/");
  }
  return text;
}

const VariantResult& Snapshot(const ScenarioFile& file, VariantResult* storage) {
  *storage = RunVariant("snapshot", file.variants[0].second, {.collect_pods = true});
  return *storage;
}

const JobClass& ClassOf(const Scenario& s, const std::string& name) {
  for (const JobClass& jc : s.job_classes) {
    if (jc.name == name) return jc;
  }
  FAIL("no job class " << name);
  return s.job_classes.front();
}

}  // namespace

TEST_CASE("the example telemetry and snapshot import to a scenario whose runs match the observed",
          "[cli][telemetry]") {
  const fs::path tmp = TempDir("example");
  const fs::path out = tmp / "scenario.json";
  const Outcome r = ImportExample(out, "--jobs " + kExample + "jobs.json --telemetry " + kExample);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  Result<ScenarioFile> file = LoadScenarioFile(out.string());
  INFO((file.ok() ? "" : file.status().ToString()));
  REQUIRE(file.ok());
  VariantResult storage;
  const VariantResult& run = Snapshot(file.value(), &storage);
  const telemetry::PodObservations observed = telemetry::LoadExampleExport();
  // Every finished pod of the export is replayed under its own name and, the cluster being
  // uncontended (8 3g.20gb instances for 4 concurrent resnet50 pods, 4 L4s for 4 bert-eval
  // pods), starts when it arrives and runs exactly its observed time: the trace rows carry
  // the observed seconds, which the engine's microsecond clock holds exactly.
  std::map<std::string, const PodRecord*> simulated;
  for (const PodRecord& p : run.pods) simulated[p.name] = &p;
  int compared = 0;
  for (const telemetry::PodObservation& o : observed.pods) {
    if (!o.run_seconds) continue;  // llm-serve's pods still run: pinned, not replayed
    INFO(o.key.pod);
    REQUIRE(simulated.contains(o.key.pod));
    const PodRecord& p = *simulated.at(o.key.pod);
    REQUIRE(p.started);
    REQUIRE(p.ended);
    CHECK((*p.ended - *p.started).seconds() == *o.run_seconds);
    // Submitted at its creation time; time 0 is the earliest replayed pod's creation (00:02).
    CHECK(p.created.seconds() == *o.created - 1764201720);
    ++compared;
  }
  CHECK(compared == 9);
  // Duty cycles and memory: each workload's class holds the mean of its pods' duty cycles and
  // the largest peak of its pods that did not fail, exactly as observed (MiB are whole).
  const Scenario& s = file.value().variants[0].second;
  std::map<std::string, std::pair<double, int>> duty;
  std::map<std::string, double> memory;
  for (const telemetry::PodObservation& o : observed.pods) {
    const std::string w = o.workload ? o.workload->name : o.key.pod;
    if (o.duty_cycle) {
      duty[w].first += *o.duty_cycle;
      ++duty[w].second;
    }
    if (o.peak_memory_mib && o.terminated_reason != "OOMKilled") {
      memory[w] = std::max(memory[w], *o.peak_memory_mib);
    }
  }
  for (const char* w : {"resnet50-train", "bert-eval", "llm-serve"}) {
    INFO(w);
    const JobClass& jc = ClassOf(s, w);
    CHECK(jc.duty_cycle == Approx(duty[w].first / duty[w].second).epsilon(1e-12));
    CHECK(jc.gpu_memory_mib == static_cast<int64_t>(memory[w]));
  }
  CHECK(ClassOf(s, "bert-eval").gpu_memory_mib == 14300);  // the OOMKilled pod's 22912 left out
  // The engine reads the replayed pods' duty cycles from their classes (below 1): the GPUs
  // they hold are busy less than they are allocated.
  CHECK(run.metrics.gpu_compute_utilization < run.metrics.gpu_allocation_ratio);
  // The running Deployment keeps its 3 pods pinned, with the observed duty cycle and memory.
  int serving = 0;
  for (const PodRecord& p : run.pods) serving += p.owner.find("llm-serve@") != std::string::npos;
  CHECK(serving == 3);
  fs::remove_all(tmp);
}

TEST_CASE("without telemetry the snapshot's terminated times replay the Jobs' pods",
          "[cli][telemetry]") {
  const fs::path tmp = TempDir("alone");
  const fs::path out = tmp / "scenario.json";
  REQUIRE(ImportExample(out, "").exit_code == 0);
  Result<ScenarioFile> file = LoadScenarioFile(out.string());
  REQUIRE(file.ok());
  VariantResult storage;
  const VariantResult& run = Snapshot(file.value(), &storage);
  // The containers' startedAt..finishedAt, as pods.json has them (generate.py: the same
  // times kube-state-metrics gives): 1800, 1920, 1740, 2100, 1860 s; 600, 660, 420, 720 s.
  const std::map<std::string, double> expected = {
      {"resnet50-train-4xk2p", 1800}, {"resnet50-train-9qz7m", 1920},
      {"resnet50-train-b2rtl", 1740}, {"resnet50-train-hc8wd", 2100},
      {"resnet50-train-t5nvx", 1860}, {"bert-eval-2lmfd", 600},
      {"bert-eval-8pwks", 660},       {"bert-eval-fj6xq", 420},
      {"bert-eval-rw9zc", 720}};
  int compared = 0;
  for (const PodRecord& p : run.pods) {
    const auto it = expected.find(p.name);
    if (it == expected.end()) continue;
    INFO(p.name);
    REQUIRE(p.ended);
    CHECK((*p.ended - *p.started).seconds() == it->second);
    ++compared;
  }
  CHECK(compared == 9);
  // Nothing says their duty cycle or memory: the classes keep the defaults.
  const Scenario& s = file.value().variants[0].second;
  CHECK(ClassOf(s, "resnet50-train").duty_cycle == 1);
  CHECK(ClassOf(s, "resnet50-train").gpu_memory_mib == 0);
  fs::remove_all(tmp);
}

TEST_CASE("migsim import's report says where each workload's figures came from",
          "[cli][telemetry][golden]") {
  const fs::path tmp = TempDir("report");
  const Outcome r = ImportExample(tmp / "scenario.json",
                                  "--jobs " + kExample + "jobs.json --telemetry " + kExample);
  CHECK(r.exit_code == 0);
  CHECK(WithoutFolder(r.output) ==
        ReadText(std::string(MIGSIM_SOURCE_DIR) + "/tests/golden/expected/cli/import-telemetry.txt"));
  // Without telemetry the snapshot's terminated times give the Jobs' run times; duty cycle
  // and memory are then defaults, and the report says so.
  const Outcome alone = ImportExample(tmp / "scenario.json", "");
  CHECK(alone.exit_code == 0);
  CHECK(WithoutFolder(alone.output) ==
        ReadText(std::string(MIGSIM_SOURCE_DIR) + "/tests/golden/expected/cli/import-snapshot-times.txt"));
  fs::remove_all(tmp);
}

TEST_CASE("bad telemetry and Jobs files exit 2 naming the file and the element, writing nothing",
          "[cli][telemetry]") {
  const fs::path tmp = TempDir("bad");
  const fs::path out = tmp / "scenario.json";
  const fs::path export_dir = tmp / "export";
  fs::create_directories(export_dir);
  auto write = [&](const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
  };
  // A DCGM sample out of range: the file and the sample's JSON pointer.
  write(export_dir / "DCGM_FI_DEV_GPU_UTIL.json",
        R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":)"
        R"("DCGM_FI_DEV_GPU_UTIL","namespace":"ml","pod":"p"},"values":[[1764201600,"130"]]}]}})");
  Outcome r = ImportExample(out, "--telemetry " + export_dir.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains((export_dir / "DCGM_FI_DEV_GPU_UTIL.json").string() +
                                       ":/data/result/0/values/0/1: DCGM_FI_DEV_GPU_UTIL must be "
                                       "within [0, 100], got 130"));
  CHECK_FALSE(fs::exists(out));
  // Malformed JSON.
  write(export_dir / "DCGM_FI_DEV_GPU_UTIL.json", R"({"status":"success",)");
  r = ImportExample(out, "--telemetry " + export_dir.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains((export_dir / "DCGM_FI_DEV_GPU_UTIL.json").string()));
  CHECK_FALSE(fs::exists(out));
  // A folder without any export, and a path that is no folder.
  fs::remove(export_dir / "DCGM_FI_DEV_GPU_UTIL.json");
  r = ImportExample(out, "--telemetry " + export_dir.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--telemetry: none of the exports is here"));
  r = ImportExample(out, "--telemetry " + kExample + "jobs.json");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--telemetry: not a folder"));
  // A Job's completionTime that is no RFC 3339 time: the file, document and path.
  write(tmp / "jobs.json", R"({"kind": "List", "items": [{"kind": "Job", "metadata": {"name": )"
                           R"("a", "namespace": "ml"}, "status": {"startTime": )"
                           R"("2025-11-27T00:00:00Z", "completionTime": "yesterday"}}]})");
  r = ImportExample(out, "--jobs " + (tmp / "jobs.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains((tmp / "jobs.json").string() +
                                       ": document 1: items[0].status.completionTime (line 1): "
                                       "expected an RFC 3339 time such as 2025-11-27T00:02:00Z, "
                                       "got 'yesterday'"));
  CHECK_FALSE(fs::exists(out));
  // A Pod where a Job should be.
  r = ImportExample(out, "--jobs " + kExample + "pods.json");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("expected a Job (kubectl get jobs -A -o json), got Pod"));
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(tmp);
}

}  // namespace migsim
