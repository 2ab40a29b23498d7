// Workload kind "Arrivals": the trace it generates (count, order, names, run times, seeds)
// and the errors that name the field.

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

// A scenario on one g4dn.xlarge with seed `seed`, one job class "train" (run 100 s) and the
// workloads `workloads` (an object's members, without braces).
std::string Doc(const std::string& workloads, int seed = 1) {
  return R"({"name": "t", "description": "d", "seed": )" + std::to_string(seed) + R"(,
    "cluster": {"nodes": {"g4dn": {"type": "g4dn.xlarge"}}},
    "job_classes": {"train": {"run_s": 100}},
    "workloads": {)" +
         workloads + "}}";
}

// One Arrivals workload `w` with the members `members` (without braces).
std::string Arrivals(const std::string& members, int seed = 1) {
  return Doc(R"("w": {"kind": "Arrivals", )" + members + "}", seed);
}

// A one-GPU template without a job class, as a JSON value.
constexpr char kGpu[] = R"({"resources": {"nvidia.com/gpu": 1}})";

// The directory of the scenario, for empirical CSVs; one per process.
fs::path Dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("migsim-arrivals-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

Result<ScenarioFile> Load(const std::string& doc, const std::string& csv = "") {
  if (!csv.empty()) std::ofstream(Dir() / "runs.csv") << csv;
  return ParseScenarioText(doc, (Dir() / "s.json").string());
}

const Scenario& First(const Result<ScenarioFile>& loaded) {
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return loaded.value().variants.at(0).second;
}

// A copy, so that it outlives a temporary `loaded`.
TraceSpec Trace(const Result<ScenarioFile>& loaded, size_t workload = 0) {
  return std::get<TraceSpec>(First(loaded).workloads.at(workload));
}

// The error of loading `doc`, with the scenario's path replaced by "s.json".
std::string Error(const std::string& doc, const std::string& csv = "") {
  const Result<ScenarioFile> loaded = Load(doc, csv);
  REQUIRE_FALSE(loaded.ok());
  std::string message = loaded.status().ToString();
  const std::string prefix = (Dir() / "").string();
  for (size_t at; (at = message.find(prefix)) != std::string::npos;) {
    message.erase(at, prefix.size());
  }
  return message;
}

}  // namespace

TEST_CASE("an Arrivals workload becomes a trace of count pods in time order, from at_s",
          "[io][arrivals]") {
  const Result<ScenarioFile> loaded =
      Load(Arrivals(std::string(R"("at_s": 50, "count": 300, "rate_per_s": 0.5, "template": )") +
                    kGpu + R"(, "run_time": {"distribution": "exponential", "mean_s": 60})"));
  const TraceSpec& trace = Trace(loaded);
  REQUIRE(trace.entries.size() == 300);
  CHECK(trace.name == "w");
  CHECK(trace.entries.front().at > SimTime::Seconds(50));
  for (size_t i = 0; i < trace.entries.size(); ++i) {
    const TraceEntry& e = trace.entries[i];
    CHECK(e.name == "w-" + std::to_string(i));
    REQUIRE(e.run);
    if (i > 0) REQUIRE(trace.entries[i - 1].at <= e.at);
  }
  const Scenario& s = First(loaded);
  CHECK_FALSE(s.templates[trace.entries[0].tmpl.value()].job_class.valid());
}

TEST_CASE("until_s ends the arrivals at that time, and with count whichever comes first",
          "[io][arrivals]") {
  const std::string base = std::string(R"("at_s": 100, "rate_per_s": 2, "template": )") + kGpu +
                           R"(, "run_time": {"distribution": "constant", "s": 5})";
  const TraceSpec& until = Trace(Load(Arrivals(base + R"(, "until_s": 1100)")));
  CHECK(until.entries.size() == Approx(2000).epsilon(0.1));
  CHECK(until.entries.back().at < SimTime::Seconds(1100));
  CHECK(until.entries.back().run == SimTime::Seconds(5));
  CHECK(Trace(Load(Arrivals(base + R"(, "until_s": 1100, "count": 10)"))).entries.size() == 10);
  CHECK(Trace(Load(Arrivals(base + R"(, "until_s": 101, "count": 10000)"))).entries.size() < 20);
}

TEST_CASE(
    "a mix names pods after their class, the workload's run_time is the default of the "
    "classes without a job class",
    "[io][arrivals]") {
  const Result<ScenarioFile> mixed = Load(Arrivals(std::string(R"("count": 2000, "rate_per_s": 1,
        "run_time": {"distribution": "constant", "s": 7},
        "mix": {"high": {"weight": 1, "template": )") +
                                                   kGpu + R"(},
                "low": {"weight": 3, "template": {"job_class": "train"}}})"));
  const TraceSpec& trace = Trace(mixed);
  REQUIRE(trace.entries.size() == 2000);
  int high = 0;
  for (size_t i = 0; i < trace.entries.size(); ++i) {
    const TraceEntry& e = trace.entries[i];
    const bool is_high = e.name == "w-high-" + std::to_string(i);
    CHECK((is_high || e.name == "w-low-" + std::to_string(i)));
    CHECK(e.run == (is_high ? std::optional(SimTime::Seconds(7)) : std::nullopt));
    high += is_high;
  }
  CHECK(high == Approx(500).epsilon(0.15));
}

TEST_CASE("arrivals are the same for a seed and differ across seeds and workload names",
          "[io][arrivals]") {
  const std::string members =
      std::string(R"("kind": "Arrivals", "count": 50, "rate_per_s": 1, "template": )") + kGpu +
      R"(, "run_time": {"distribution": "exponential", "mean_s": 10})";
  const std::string two = R"("a": {)" + members + R"(}, "b": {)" + members + "}";
  const Result<ScenarioFile> one = Load(Doc(two, 1)), again = Load(Doc(two, 1)),
                             other = Load(Doc(two, 2));
  const auto same = [](const TraceSpec& x, const TraceSpec& y) {
    for (size_t i = 0; i < x.entries.size(); ++i) {
      if (x.entries[i].at != y.entries[i].at || x.entries[i].run != y.entries[i].run) return false;
    }
    return true;
  };
  CHECK(same(Trace(one, 0), Trace(again, 0)));
  CHECK(same(Trace(one, 1), Trace(again, 1)));
  CHECK_FALSE(same(Trace(one, 0), Trace(other, 0)));
  CHECK_FALSE(same(Trace(one, 0), Trace(one, 1)));
}

TEST_CASE("a piecewise rate counts from at_s and gives each piece its share of arrivals",
          "[io][arrivals]") {
  const TraceSpec& trace =
      Trace(Load(Arrivals(std::string(R"("at_s": 1000, "until_s": 3000, "template": )") + kGpu +
                          R"(, "run_time": {"distribution": "constant", "s": 1},
          "rate": [{"at_s": 0, "per_s": 2}, {"at_s": 1000, "per_s": 10}])")));
  size_t first = 0;
  for (const TraceEntry& e : trace.entries) first += e.at < SimTime::Seconds(2000);
  CHECK(first == Approx(2000).epsilon(0.05));
  CHECK(trace.entries.size() - first == Approx(10000).epsilon(0.05));
}

TEST_CASE("an empirical run time draws the rows of the CSV column", "[io][arrivals]") {
  const TraceSpec& trace =
      Trace(Load(Arrivals(std::string(R"("count": 100, "rate_per_s": 1, "template": )") + kGpu +
                          R"(, "run_time": {"distribution": "empirical", "csv": "runs.csv",
                                 "column": "secs"})"),
                 "name,secs\na,10\n\nb,20\n"));
  for (const TraceEntry& e : trace.entries) {
    CHECK((e.run == SimTime::Seconds(10) || e.run == SimTime::Seconds(20)));
  }
  fs::remove_all(Dir());
}

}  // namespace migsim

namespace migsim {
namespace {

// The error of an Arrivals workload `w` with `members`, a one-GPU template and, unless
// `members` has one, a constant run time.
std::string ErrorWith(const std::string& members) {
  const std::string run = members.find("\"run_time\"") == std::string::npos
                              ? R"(, "run_time": {"distribution": "constant", "s": 1})"
                              : "";
  const std::string tmpl = members.find("\"template\"") == std::string::npos &&
                                   members.find("\"mix\"") == std::string::npos
                               ? std::string(R"(, "template": )") + kGpu
                               : "";
  return Error(Arrivals(members + tmpl + run));
}

const std::string kW = "s.json:/workloads/w";

}  // namespace

TEST_CASE("an Arrivals workload's end, start and fields are checked at their pointers",
          "[io][arrivals]") {
  CHECK(ErrorWith(R"("rate_per_s": 1)") ==
        kW + ": missing the end of the arrivals: give count, until_s or both");
  CHECK(ErrorWith(R"("rate_per_s": 1, "count": 0)") == kW + "/count: must be >= 1");
  CHECK(ErrorWith(R"("rate_per_s": 1, "count": 10000001)") == kW + "/count: must be <= 10000000");
  CHECK(ErrorWith(R"("rate_per_s": 1, "until_s": -1)") == kW + "/until_s: must be >= 0");
  CHECK(ErrorWith(R"("rate_per_s": 1, "at_s": 10, "until_s": 10)") ==
        kW + "/until_s: must be > the workload's at_s (10)");
  CHECK(ErrorWith(R"("rate_per_s": 1, "count": 1, "at_s": -5)") == kW + "/at_s: must be >= 0");
  CHECK_THAT(ErrorWith(R"("rate_per_s": 1, "count": 1, "limit": 5)"),
             Catch::StartsWith(kW + "/limit: unknown field 'limit' (expected one of: kind, "));
  CHECK(ErrorWith(R"("rate_per_s": 1000, "until_s": 12000)") ==
        kW + "/until_s: more than 10000000 pods (the most one run holds) arrive before until_s: "
             "lower the rate or until_s, or give count");
  CHECK(ErrorWith(R"("rate_per_s": 1e-12, "count": 5)")
            .starts_with(kW + "/rate_per_s: the time of arrival 0 ("));
}

TEST_CASE("an Arrivals workload's rate is checked at its pointer", "[io][arrivals]") {
  CHECK(ErrorWith(R"("count": 1)") == kW + ": missing the arrival rate: give rate_per_s or rate");
  CHECK(ErrorWith(R"("count": 1, "rate_per_s": 0)") == kW + "/rate_per_s: must be > 0");
  CHECK(ErrorWith(R"("count": 1, "rate_per_s": -2)") == kW + "/rate_per_s: must be > 0");
  CHECK(ErrorWith(R"("count": 1, "rate_per_s": 1, "rate": [])") ==
        kW + "/rate: give either rate_per_s or rate, not both");
  CHECK(ErrorWith(R"("count": 1, "rate": [])") == kW + "/rate: must have at least one rate point");
  CHECK(ErrorWith(R"("count": 1, "rate": [{"at_s": 5, "per_s": 1}])") ==
        kW + "/rate/0/at_s: the first rate point must be at at_s 0");
  CHECK(ErrorWith(R"("count": 1, "rate": [{"at_s": 0, "per_s": 1}, {"at_s": 0, "per_s": 2}])") ==
        kW + "/rate/1/at_s: must be > the previous point's at_s (0)");
  CHECK(ErrorWith(R"("count": 1, "rate": [{"at_s": 0, "per_s": 1}, {"at_s": 9, "per_s": 0}])") ==
        kW + "/rate/1/per_s: must be > 0");
  CHECK(ErrorWith(R"("count": 1, "rate": [{"at_s": 0}])") ==
        kW + "/rate/0: missing required field 'per_s'");
}

TEST_CASE("an Arrivals workload's run times are checked at their pointers", "[io][arrivals]") {
  const std::string r = R"("count": 1, "rate_per_s": 1, "run_time": )";
  CHECK(ErrorWith(r + R"({"distribution": "gamma"})") ==
        kW + "/run_time/distribution: unknown run-time distribution 'gamma' (valid: constant, "
             "empirical, exponential, lognormal)");
  CHECK(ErrorWith(r + R"({"mean_s": 5})") ==
        kW + "/run_time: missing required field 'distribution'");
  CHECK(ErrorWith(r + R"({"distribution": "exponential", "mean_s": 0})") ==
        kW + "/run_time/mean_s: must be > 0");
  CHECK(ErrorWith(r + R"({"distribution": "exponential"})") ==
        kW + "/run_time: missing required field 'mean_s'");
  CHECK(ErrorWith(r + R"({"distribution": "lognormal", "mean_s": -1, "sigma": 1})") ==
        kW + "/run_time/mean_s: must be > 0");
  CHECK(ErrorWith(r + R"({"distribution": "lognormal", "mean_s": 1, "sigma": -1})") ==
        kW + "/run_time/sigma: must be >= 0");
  CHECK(ErrorWith(r + R"({"distribution": "constant", "s": -3})") ==
        kW + "/run_time/s: must be >= 0");
  CHECK_THAT(ErrorWith(r + R"({"distribution": "constant", "s": 3, "mean_s": 3})"),
             Catch::StartsWith(kW + "/run_time/mean_s: unknown field 'mean_s' (expected one of: "
                                    "distribution, s)"));
  CHECK(ErrorWith(r + "null") == kW + "/run_time: expected an object, got null");
  CHECK(Error(Arrivals(R"("count": 1, "rate_per_s": 1, "template": {"resources": {}})")) ==
        kW + "/run_time: no run_time, and the template has no job_class to give the run time");
}

TEST_CASE("an empirical run time reports its CSV's problems, naming the line", "[io][arrivals]") {
  const std::string r =
      R"("count": 1, "rate_per_s": 1, "run_time": {"distribution": "empirical", )";
  CHECK(Error(Arrivals(r + R"("csv": "none.csv"}, "template": {})")) ==
        kW + "/run_time/csv: none.csv: cannot read file: No such file or directory");
  CHECK(Error(Arrivals(r + R"("csv": "runs.csv", "column": "secs"}, "template": {})"),
              "run_s\n5\n") ==
        kW + "/run_time/column: runs.csv:line 1: no column 'secs' (columns: run_s)");
  CHECK(Error(Arrivals(r + R"("csv": "runs.csv"}, "template": {})"), "run_s\n5\nsoon\n") ==
        kW + "/run_time/csv: runs.csv:line 3: run_s 'soon' is not a number of seconds in "
             "0..1000000000");
  CHECK(Error(Arrivals(r + R"("csv": "runs.csv"}, "template": {})"), "run_s\n-1\n") ==
        kW + "/run_time/csv: runs.csv:line 2: run_s '-1' is not a number of seconds in "
             "0..1000000000");
  CHECK(Error(Arrivals(r + R"("csv": "runs.csv"}, "template": {})"), "run_s\n") ==
        kW + "/run_time/csv: runs.csv: no rows");
  CHECK(ErrorWith(r + R"("csv": ""})") == kW + "/run_time/csv: must not be empty");
  fs::remove_all(Dir());
}

TEST_CASE("an Arrivals workload's classes are checked at their pointers", "[io][arrivals]") {
  const std::string r = R"("count": 1, "rate_per_s": 1, )";
  CHECK(ErrorWith(r + R"("mix": {})") == kW + "/mix: must name at least one class");
  CHECK(ErrorWith(r + R"("mix": {"a": {"weight": 0, "template": {}}})") ==
        kW + "/mix/a/weight: must be > 0");
  CHECK(ErrorWith(r + R"("mix": {"a": {"weight": -1, "template": {}}})") ==
        kW + "/mix/a/weight: must be > 0");
  CHECK(ErrorWith(r + R"("mix": {"a": {"weight": 1}})") ==
        kW + "/mix/a: missing required field 'template'");
  CHECK(ErrorWith(r + R"("mix": {"a": {"template": {}}}, "template": {})") ==
        kW + "/template: give either mix or template, not both");
  CHECK(Error(Arrivals(r + R"("mix": {"a": {"template": {}}, "b": {"template": {}, "run_time": )"
                           R"({"distribution": "constant", "s": 1}}})")) ==
        kW + "/mix/a/run_time: no run_time, and the template has no job_class to give the run "
             "time");
  CHECK(Error(Arrivals(r + R"("run_time": {"distribution": "constant", "s": 1})")) ==
        kW + ": missing the pods: give template or mix");
  CHECK(ErrorWith(r + R"("mix": {"a": {"template": {"job_class": "tran"}}})") ==
        kW + "/mix/a/template/job_class: unknown job class 'tran' (valid: train)");
  CHECK(ErrorWith(r + R"("mix": {"a": {"template": {"job_class": "train"}, "run_time": )"
                      R"({"distribution": "constant", "s": 1}}})") ==
        kW + "/mix/a/run_time: the template's job_class gives the run time: give run_time or "
             "job_class, not both");
  CHECK(ErrorWith(r + R"("template": {"job_class": "train"}, "run_time": )"
                      R"({"distribution": "constant", "s": 1})") ==
        kW + "/run_time: the template's job_class gives the run time: give run_time or "
             "job_class, not both");
}

TEST_CASE("generated arrivals count towards the scenario's pod limit", "[io][arrivals]") {
  std::string workloads;
  for (int i = 0; i < 10; ++i) {  // 10,000,000 bare pods: the limit exactly
    workloads += R"("p)" + std::to_string(i) +
                 R"(": {"kind": "Pod", "count": 1000000, "template": {"job_class": "train"}}, )";
  }
  const std::string arrivals =
      R"("w": {"kind": "Arrivals", "count": 1, "rate_per_s": 1, "template": {"job_class": "train"}})";
  CHECK(Error(Doc(workloads + arrivals)) ==
        "s.json:/workloads/p0: the workloads create 10000001 pods before retries (this one "
        "1000000); at most 10000000 fit in one run (raise it with --limit pods=N)");
}

}  // namespace migsim
