// Workload kind "Trace" with a pod list (`pods` and `templates`): what the rows become and
// the errors that name the row, inline or in a CSV.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

// A scenario on one p4d with MIG, whose workload `w` has the members `trace` (without
// braces) and two templates: `small` with no job class, `big` with the class `train`.
std::string Doc(const std::string& trace) {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "mig": {"config": "all-balanced"},
                                  "device_plugin": {"mig_strategy": "mixed"}}}},
    "job_classes": {"train": {"run_s": 100}},
    "workloads": {"w": {"kind": "Trace", )" +
         trace + R"(, "templates": {
      "small": {"resources": {"nvidia.com/mig-1g.5gb": 1}},
      "big": {"resources": {"nvidia.com/mig-3g.20gb": 1}, "job_class": "train"}}}}})";
}

// The directory of the scenario, for pod-list CSVs; one per process.
fs::path Dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("migsim-pod-list-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

Result<ScenarioFile> Load(const std::string& trace, const std::string& csv = "") {
  if (!csv.empty()) std::ofstream(Dir() / "list.csv") << csv;
  return ParseScenarioText(Doc(trace), (Dir() / "t.json").string());
}

const TraceSpec& Trace(const Result<ScenarioFile>& loaded) {
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return std::get<TraceSpec>(loaded.value().variants.at(0).second.workloads.at(0));
}

std::string Error(const std::string& trace, const std::string& csv = "") {
  const Result<ScenarioFile> loaded = Load(trace, csv);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

}  // namespace

TEST_CASE("a pod list becomes one pod per row, ordered by time, with its template and run time",
          "[io][trace]") {
  const Result<ScenarioFile> loaded = Load(R"("pods": "list.csv", "at_s": 100, "time_scale": 2)",
                                           "at_s,template,run_s,name\n"
                                           "30,small,5,late\n"
                                           "10,big,,\n"
                                           "10,small,0,\n");
  const TraceSpec& trace = Trace(loaded);
  const Scenario& s = loaded.value().variants.at(0).second;
  REQUIRE(trace.entries.size() == 3);
  // Stable by time; unnamed rows are called after the workload and their row index.
  CHECK(trace.entries[0].name == "w-1");
  CHECK(trace.entries[1].name == "w-2");
  CHECK(trace.entries[2].name == "late");
  CHECK(trace.entries[0].at == SimTime::Seconds(120));
  CHECK(trace.entries[2].at == SimTime::Seconds(160));
  CHECK_FALSE(trace.entries[0].run);  // the job class decides
  CHECK(trace.entries[1].run == SimTime::Zero());
  CHECK(trace.entries[2].run == SimTime::Seconds(10));
  CHECK(s.templates[trace.entries[0].tmpl.value()].job_class.valid());
  CHECK(trace.entries[1].tmpl == trace.entries[2].tmpl);
  fs::remove_all(Dir());
}

TEST_CASE("an inline pod list reads like the CSV, and limit keeps the earliest rows",
          "[io][trace]") {
  const Result<ScenarioFile> loaded = Load(R"("limit": 2, "pods": [
      {"at_s": 9, "template": "small", "run_s": 1},
      {"at_s": 3, "template": "big", "name": "b"},
      {"at_s": 5, "template": "small", "run_s": 2}])");
  const TraceSpec& trace = Trace(loaded);
  REQUIRE(trace.entries.size() == 2);
  CHECK(trace.entries[0].name == "b");
  CHECK(trace.entries[1].name == "w-2");
  CHECK(trace.entries[1].at == SimTime::Seconds(5));
}

TEST_CASE("a pod list row that names no template, or has no run time, is reported at the row",
          "[io][trace]") {
  CHECK(Error(R"("pods": [{"at_s": 0, "template": "smal", "run_s": 1}])") ==
        Dir().string() + "/t.json:/workloads/w/pods/0/template: unknown pod template 'smal' "
                         "(valid: big, small)");
  CHECK(Error(R"("pods": [{"at_s": 0, "template": "big"}, {"at_s": 0, "template": "small"}])") ==
        Dir().string() + "/t.json:/workloads/w/pods/1/run_s: no run_s, and template 'small' has "
                         "no job_class to give the run time");
  CHECK(Error(R"("pods": "list.csv")", "at_s,template\n0,big\n\n1,small\n") ==
        Dir().string() + "/t.json:/workloads/w/pods: " + (Dir() / "list.csv").string() +
            ":line 4: no run_s, and template 'small' has no job_class to give the run time");
  CHECK(Error(R"("pods": "list.csv")", "at_s,template,run_s\nsoon,small,1\n") ==
        Dir().string() + "/t.json:/workloads/w/pods: " + (Dir() / "list.csv").string() +
            ":line 2: at_s 'soon' is not a number of seconds in 0..1000000000");
  CHECK(Error(R"("time_scale": 1e6, "pods": [{"at_s": 2000, "template": "big"}])") ==
        Dir().string() + "/t.json:/workloads/w/pods/0/at_s: scaled by time_scale, the row's "
                         "times pass the 1000000000 s a run can span");
  fs::remove_all(Dir());
}

TEST_CASE("pod names in a pod list are unique, generated ones included", "[io][trace]") {
  CHECK(Error(R"("pods": "list.csv")", "at_s,template,run_s,name\n0,small,1,a\n1,small,1,a\n") ==
        Dir().string() + "/t.json:/workloads/w/pods: " + (Dir() / "list.csv").string() +
            ":line 3: pod name 'a' is already the name of line 2");
  CHECK(Error(R"("pods": [{"at_s": 0, "template": "big"}, {"at_s": 0, "template": "big",
                          "name": "w-0"}])") ==
        Dir().string() + "/t.json:/workloads/w/pods/1/name: pod name 'w-0' is already the name "
                         "of row 0");
  fs::remove_all(Dir());
}

TEST_CASE("a pod list trace needs its rows, its templates and nothing of the openb form",
          "[io][trace]") {
  const std::string json = Dir().string() + "/t.json:/workloads/w";
  CHECK(Error(R"("pods": [])") == json + "/pods: no pods");
  CHECK(Error(R"("time_scale": -1, "pods": [])") == json + "/time_scale: must be > 0");
  CHECK(Error(R"("pods": 3)") ==
        json + "/pods: expected a CSV file name or an array of pods, got a number");
  CHECK(Error(R"("pods": "missing.csv")") ==
        json + "/pods: " + Dir().string() +
            "/missing.csv: cannot read file: No such file or directory");
  CHECK(Error(R"("pods": [], "openb_pods": "x.csv")") ==
        json + "/pods: give either openb_pods or pods, not both");
  CHECK_THAT(Error(R"("pods": [], "gpu": "whole")"),
             Catch::StartsWith(json + "/gpu: unknown field 'gpu' (expected one of: kind, namespace, "
                                      "pods, templates"));
  fs::remove_all(Dir());
}

}  // namespace migsim
