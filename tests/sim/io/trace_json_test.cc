// Workload kind "Trace" and node pools from an openb node CSV: what a replayed trace
// becomes (times, run times, requests, affinity) and the errors that name the CSV line.

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

constexpr char kNodes[] =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "v100-node,32000,131072,4,V100M16\n"
    "t4-node,16000,65536,2,T4\n"
    "cpu-node,8000,32768,0,\n";

constexpr char kPods[] =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n"
    "late,2000,4096,2,1000,,LS,Running,500,900,510\n"
    "share,4000,8192,1,250,T4|V100M16,LS,Running,100,400,110\n"
    "never-scheduled,1000,2048,1,700,,BE,Pending,300,360,\n"
    "cpu,2000,4096,0,0,,BE,Running,100,200,100\n"
    "same-shape,4000,8192,1,250,T4|V100M16,LS,Running,120,150,120\n";

// A directory holding nodes.csv, pods.csv and whatever else a test writes; one per process
// (ctest runs test cases in parallel processes).
class TraceDir {
 public:
  TraceDir()
      : dir_(fs::temp_directory_path() /
             ("migsim-trace-json-test-" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    Write("nodes.csv", kNodes);
    Write("pods.csv", kPods);
  }
  ~TraceDir() { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }
  std::string Label() const { return (dir_ / "t.json").string(); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

constexpr char kFractional[] = R"(, "device_plugin": {"fractional": {}})";

// A scenario with the pool `ali` from nodes.csv and the trace `w` from pods.csv; `trace`
// and `pool` are spliced in as further members.
std::string Doc(const std::string& trace = "", const std::string& pool = kFractional) {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"ali": {"openb_nodes": "nodes.csv")" + pool + R"(}}},
    "workloads": {"w": {"kind": "Trace", "openb_pods": "pods.csv")" + trace + "}}}";
}

Result<ScenarioFile> Load(const TraceDir& dir, const std::string& text) {
  return ParseScenarioText(text, dir.Label());
}

const Scenario& Only(const Result<ScenarioFile>& loaded) {
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return loaded.value().variants.at(0).second;
}

TEST_CASE("a trace becomes one pod per row, ordered and timed from the first creation",
          "[io][trace]") {
  TraceDir dir;
  const Result<ScenarioFile> loaded = Load(dir, Doc(R"(, "at_s": 10)"));
  const Scenario& s = Only(loaded);
  REQUIRE(s.workloads.size() == 1);
  const auto& trace = std::get<TraceSpec>(s.workloads[0]);
  REQUIRE(trace.entries.size() == 5);
  const char* names[] = {"share", "cpu", "same-shape", "never-scheduled", "late"};
  const double at[] = {10, 10, 30, 210, 410};
  // deletion - scheduled; deletion - creation for the row without scheduled_time.
  const double run[] = {290, 100, 30, 60, 390};
  for (size_t i = 0; i < 5; ++i) {
    INFO(names[i]);
    CHECK(trace.entries[i].name == names[i]);
    CHECK(trace.entries[i].at == SimTime::Seconds(at[i]));
    REQUIRE(trace.entries[i].run);
    CHECK(*trace.entries[i].run == SimTime::Seconds(run[i]));
  }
  // Equal shapes share a template: 4 templates for 5 rows.
  CHECK(s.templates.size() == 4);
  CHECK(trace.entries[0].tmpl == trace.entries[2].tmpl);
}

TEST_CASE("a trace pod asks for milli-GPU, or whole GPUs, and its GPU models as affinity",
          "[io][trace]") {
  TraceDir dir;
  const Result<ScenarioFile> milli = Load(dir, Doc());
  const Scenario& s = Only(milli);
  const auto& trace = std::get<TraceSpec>(s.workloads[0]);
  const PodTemplate& share = s.templates[trace.entries[0].tmpl.value()];
  CHECK(share.requests.cpu_milli == 4000);
  CHECK(share.requests.memory_mib == 8192);
  REQUIRE(share.requests.extended.size() == 1);
  CHECK(s.resources.name(share.requests.extended[0].resource) == "alibabacloud.com/gpu-milli");
  CHECK(share.requests.extended[0].count == 250);
  CHECK(share.node_affinity ==
        NodeAffinity{{"alibabacloud.com/gpu-card-model", {"T4", "V100M16"}}});
  CHECK_FALSE(share.job_class.valid());
  const PodTemplate& late = s.templates[trace.entries[4].tmpl.value()];
  CHECK(late.requests.extended[0].count == 2000);
  CHECK(s.templates[trace.entries[1].tmpl.value()].requests.extended.empty());

  const Result<ScenarioFile> whole =
      Load(dir, Doc(R"(, "gpu": "whole")", ""));
  const Scenario& w = Only(whole);
  const auto& wtrace = std::get<TraceSpec>(w.workloads[0]);
  const PodTemplate& wshare = w.templates[wtrace.entries[0].tmpl.value()];
  CHECK(w.resources.name(wshare.requests.extended[0].resource) == "nvidia.com/gpu");
  CHECK(wshare.requests.extended[0].count == 1);
}

TEST_CASE("time_scale scales arrivals and run times, and limit keeps the earliest rows",
          "[io][trace]") {
  TraceDir dir;
  const Result<ScenarioFile> loaded = Load(dir, Doc(R"(, "time_scale": 0.5, "limit": 3)"));
  const auto& trace = std::get<TraceSpec>(Only(loaded).workloads[0]);
  REQUIRE(trace.entries.size() == 3);
  CHECK(trace.entries[2].name == "same-shape");
  CHECK(trace.entries[2].at == SimTime::Seconds(10));
  CHECK(*trace.entries[0].run == SimTime::Seconds(145));
}

TEST_CASE("with a job class, trace pods take their run time from it", "[io][trace]") {
  TraceDir dir;
  std::string doc = Doc(R"(, "job_class": "infer")");
  doc.insert(doc.find(R"("workloads")"), R"("job_classes": {"infer": {"run_s": 5}}, )");
  const Result<ScenarioFile> loaded = Load(dir, doc);
  const auto& trace = std::get<TraceSpec>(Only(loaded).workloads[0]);
  CHECK_FALSE(trace.entries[0].run);
}

TEST_CASE("an openb node pool has one node per row, named and labelled from the CSV",
          "[io][trace]") {
  TraceDir dir;
  const Result<ScenarioFile> loaded = Load(dir, Doc("", R"(, "labels": {"team": "ali"})" + std::string(kFractional)));
  const ClusterSpec& c = Only(loaded).cluster;
  REQUIRE(c.nodes.size() == 3);
  CHECK(c.nodes[0].name == "v100-node");
  CHECK(c.nodes[0].type->vcpu == 32);
  CHECK(c.nodes[0].type->memory_gib == 128);
  CHECK(c.nodes[0].type->gpu_count == 4);
  CHECK(c.nodes[0].type->gpu->name == "V100-SXM2-16GB");
  CHECK(c.nodes[0].extra_labels ==
        Labels{{"alibabacloud.com/gpu-card-model", "V100M16"}, {"team", "ali"}});
  CHECK(c.nodes[1].type->gpu->name == "T4");
  CHECK(c.nodes[2].type->gpu_count == 0);
  CHECK(c.nodes[2].extra_labels == Labels{{"team", "ali"}});
}

TEST_CASE("an openb GPU model without a catalog GPU must be mapped", "[io][trace]") {
  TraceDir dir;
  dir.Write("nodes.csv", std::string(kNodes) + "g2-node,96000,393216,8,G2\n");
  const Result<ScenarioFile> unmapped = Load(dir, Doc());
  REQUIRE_FALSE(unmapped.ok());
  CHECK(unmapped.status().ToString() ==
        dir.Label() + ":/cluster/nodes/ali/openb_nodes: " + dir.Path("nodes.csv") +
            ":line 5: the openb GPU model 'G2' has no catalog GPU: map it in gpu_models, e.g. "
            "\"gpu_models\": {\"G2\": \"A10G\"}");
  const Result<ScenarioFile> mapped = Load(dir, Doc("", R"(, "gpu_models": {"G2": "A10G"})"));
  CHECK(Only(mapped).cluster.nodes[3].type->gpu->name == "A10G");
  const Result<ScenarioFile> typo = Load(dir, Doc("", R"(, "gpu_models": {"G2": "A10X"})"));
  REQUIRE_FALSE(typo.ok());
  CHECK_THAT(typo.status().ToString(),
             Catch::StartsWith(dir.Label() + ":/cluster/nodes/ali/gpu_models/G2: unknown GPU "
                                             "model 'A10X'"));
}

TEST_CASE("node names must be unique within an openb CSV and across pools", "[io][trace]") {
  TraceDir dir;
  dir.Write("nodes.csv", std::string(kNodes) + "t4-node,16000,65536,2,T4\n");
  const Result<ScenarioFile> twice = Load(dir, Doc());
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.status().ToString() == dir.Label() + ":/cluster/nodes/ali/openb_nodes: " +
                                         dir.Path("nodes.csv") +
                                         ":line 5: node 't4-node' is already on line 3");

  dir.Write("nodes.csv", kNodes);
  const std::string two_pools = R"({"name": "t", "description": "d", "workloads": {},
    "cluster": {"nodes": {"ali": {"openb_nodes": "nodes.csv"},
                          "ali2": {"openb_nodes": "nodes.csv"}}}})";
  const Result<ScenarioFile> clash = Load(dir, two_pools);
  REQUIRE_FALSE(clash.ok());
  CHECK(clash.status().ToString() ==
        dir.Label() + ":/cluster/nodes/ali2: node name 'v100-node' is also in pool 'ali'; "
                      "node names must be unique in the cluster");
}

TEST_CASE("a broken trace row is reported at its CSV line under the workload's field",
          "[io][trace]") {
  TraceDir dir;
  dir.Write("pods.csv", std::string(kPods) + "bad,1000,x,0,0,,BE,Running,1,2,1\n");
  const Result<ScenarioFile> bad = Load(dir, Doc());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().ToString() == dir.Label() + ":/workloads/w/openb_pods: " +
                                       dir.Path("pods.csv") +
                                       ":line 7: memory_mib 'x' is not a non-negative integer");

  dir.Write("pods.csv", std::string(kPods) + "backwards,1000,1,0,0,,BE,Running,50,40,50\n");
  const Result<ScenarioFile> order = Load(dir, Doc());
  REQUIRE_FALSE(order.ok());
  CHECK_THAT(order.status().ToString(),
             Catch::EndsWith(":line 7: times out of order (creation_time 50, scheduled_time 50, "
                             "deletion_time 40)"));

  dir.Write("pods.csv", std::string(kPods) + "far,1000,1,0,0,,BE,Running,2000000000,2000000001,\n");
  const Result<ScenarioFile> far = Load(dir, Doc());
  REQUIRE_FALSE(far.ok());
  CHECK_THAT(far.status().ToString(),
             Catch::EndsWith(":line 7: scaled by time_scale, the row's times pass the "
                             "1000000000 s a run can span"));
  dir.Write("pods.csv", std::string(kPods) + "long,1000,1,0,0,,BE,Running,100,9000000000000,\n");
  const Result<ScenarioFile> run = Load(dir, Doc());
  REQUIRE_FALSE(run.ok());
  CHECK_THAT(run.status().ToString(), Catch::EndsWith(":line 7: scaled by time_scale, the row's "
                                                      "times pass the 1000000000 s a run can span"));

  dir.Write("pods.csv", std::string(kPods) + "share,1000,1,0,0,,BE,Running,100,200,\n");
  const Result<ScenarioFile> twice = Load(dir, Doc());
  REQUIRE_FALSE(twice.ok());
  CHECK_THAT(twice.status().ToString(),
             Catch::EndsWith(":line 7: pod name 'share' is already on line 3"));

  dir.Write("pods.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1000,1,0,0\n");
  const Result<ScenarioFile> untimed = Load(dir, Doc());
  REQUIRE_FALSE(untimed.ok());
  CHECK_THAT(untimed.status().ToString(),
             Catch::EndsWith(":line 2: creation_time is needed to replay a trace"));
}

TEST_CASE("a missing trace file and bad trace options are errors at their fields",
          "[io][trace]") {
  TraceDir dir;
  const Result<ScenarioFile> missing = Load(dir, Doc().replace(Doc().find("pods.csv"), 8, "no.csv"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().ToString() == dir.Label() +
                                           ":/workloads/w/openb_pods: " + dir.Path("no.csv") +
                                           ": cannot read file: No such file or directory");
  const Result<ScenarioFile> gpu = Load(dir, Doc(R"(, "gpu": "half")"));
  REQUIRE_FALSE(gpu.ok());
  CHECK_THAT(gpu.status().ToString(),
             Catch::Contains("/workloads/w/gpu: unknown gpu request 'half'"));
  const Result<ScenarioFile> scale = Load(dir, Doc(R"(, "time_scale": 0)"));
  REQUIRE_FALSE(scale.ok());
  CHECK_THAT(scale.status().ToString(), Catch::EndsWith("/workloads/w/time_scale: must be > 0"));
  const Result<ScenarioFile> field = Load(dir, Doc(R"(, "speed": 2)"));
  REQUIRE_FALSE(field.ok());
  CHECK_THAT(field.status().ToString(), Catch::Contains("/workloads/w/speed: unknown field"));
}

}  // namespace
}  // namespace migsim
