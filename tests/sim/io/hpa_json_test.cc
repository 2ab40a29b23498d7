// Loading demand that follows the clock: a Deployment's `hpa` and its load, and `scale`
// from a CSV.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "sim/io/scenario_json.h"
#include "tests/support/scenario_text.h"
#include "tests/support/sweep_files.h"

namespace migsim {
namespace {

std::string Doc(const std::string& deployment) {
  return R"({"name": "t", "description": "d", "horizon_s": 3600,
    "cluster": {"nodes": {"g": {"type": "p3.2xlarge", "count": 2}}},
    "job_classes": {"serve": {"run_s": 10}},
    "workloads": {"web": {"kind": "Deployment", "template": {"job_class": "serve"}, )" +
         deployment + "}}}";
}

const DeploymentSpec& Web(const Scenario& s) { return std::get<DeploymentSpec>(s.workloads[0]); }

}  // namespace

TEST_CASE("a Deployment's hpa becomes its scale events and its load", "[io][hpa]") {
  const Scenario s = test::LoadFirstVariant(Doc(R"("replicas": 1, "hpa": {"max_replicas": 8,
      "target_per_replica": 10, "load": {"points": [{"at_s": 0, "value": 40}]}})"));
  const DeploymentSpec& d = Web(s);
  REQUIRE(d.load.has_value());
  CHECK(d.load->At(SimTime::Seconds(100)) == 40);
  REQUIRE(d.scale.size() == 1);
  CHECK((d.scale[0].at.seconds() == 15 && d.scale[0].replicas == 4));
  const Scenario daily = test::LoadFirstVariant(Doc(R"("hpa": {"max_replicas": 8,
      "target_per_replica": 10, "load": {"diurnal": {"mean": 50, "amplitude": 0.5}}})"));
  CHECK(Web(daily).load->At(SimTime::Seconds(12 * 3600)) == Approx(75));
}

TEST_CASE("a load or a replica series is read from a CSV next to the scenario", "[io][hpa]") {
  const auto dir = test::SweepTempDir("hpa-csv");
  std::ofstream(dir / "load.csv") << "at_s,value\n0,20\n600,80\n";
  std::ofstream(dir / "replicas.csv") << "at_s,replicas\n60,3\n120,1\n";
  std::ofstream(dir / "s.json") << Doc(R"("hpa": {"max_replicas": 8, "target_per_replica": 10,
      "load": {"csv": "load.csv"}}, "replicas": 2)");
  Result<ScenarioFile> hpa = LoadScenarioFile((dir / "s.json").string());
  REQUIRE(hpa.ok());
  CHECK(Web(hpa.value().variants[0].second).load->At(SimTime::Seconds(300)) == Approx(50));
  std::ofstream(dir / "r.json") << Doc(R"("scale": "replicas.csv")");
  Result<ScenarioFile> replicas = LoadScenarioFile((dir / "r.json").string());
  REQUIRE(replicas.ok());
  const DeploymentSpec& d = Web(replicas.value().variants[0].second);
  REQUIRE(d.scale.size() == 2);
  CHECK((d.scale[1].at.seconds() == 120 && d.scale[1].replicas == 1));
  std::ofstream(dir / "bad.csv") << "at_s,replicas\n60,2.5\n";
  std::ofstream(dir / "b.json") << Doc(R"("scale": "bad.csv")");
  CHECK(LoadScenarioFile((dir / "b.json").string()).status().message() ==
        "replicas 2.5 is not an integer in 0..1000000");
}

TEST_CASE("bad hpa input is refused at its element", "[io][hpa]") {
  CHECK(test::LoadError(Doc(R"("scale": [], "hpa": {})")) ==
        "t.json:/workloads/web/hpa: give either scale or hpa, not both");
  CHECK(test::LoadError(Doc(R"("hpa": {"max_replicas": 2, "load": {"points": []}})")) ==
        "t.json:/workloads/web/hpa: missing required field 'target_per_replica'");
  CHECK(test::LoadError(Doc(R"("hpa": {"max_replicas": 2, "target_per_replica": 1,
      "load": {"points": [], "diurnal": {"mean": 1}}})")) ==
        "t.json:/workloads/web/hpa/load: give exactly one of points, csv and diurnal");
  CHECK(test::LoadError(Doc(R"("hpa": {"max_replicas": 2, "min_replicas": 3,
      "target_per_replica": 1, "load": {"diurnal": {"mean": 1}}})")) ==
        "t.json:/workloads/web/hpa/min_replicas: must be at most max_replicas (2)");
  CHECK(test::LoadError(Doc(R"("hpa": {"max_replicas": 2, "target_per_replica": 1,
      "load": {"points": [{"at_s": 10, "value": 1}, {"at_s": 5, "value": 1}]}})")) ==
        "t.json:/workloads/web/hpa/load/points/1/at_s: must be >= the previous point's at_s "
        "(10)");
  CHECK(test::LoadError(Doc(R"("hpa": {"max_replicas": 2, "target_per_replica": 1,
      "load": {"diurnal": {"mean": 1, "amplitude": 2}}})")) ==
        "t.json:/workloads/web/hpa/load/diurnal/amplitude: must be <= 1");
}

}  // namespace migsim
