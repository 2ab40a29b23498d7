#include "sim/io/openb_csv.h"

#include <cstdio>
#include <map>

#include <catch2/catch.hpp>

#include "tests/support/openb_data.h"

namespace migsim {
namespace {

constexpr char kNodeHeader[] = "sn,cpu_milli,memory_mib,gpu,model\n";
constexpr char kPodHeader[] =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n";

std::string NodeError(const std::string& text) {
  Result<std::vector<OpenbNode>> r = ParseOpenbNodes(text, "n.csv");
  REQUIRE_FALSE(r.ok());
  return r.status().ToString();
}

std::string PodError(const std::string& text) {
  Result<std::vector<OpenbPod>> r = ParseOpenbPods(text, "p.csv");
  REQUIRE_FALSE(r.ok());
  return r.status().ToString();
}

std::vector<OpenbPod> Pods(const std::string& text) {
  Result<std::vector<OpenbPod>> r = ParseOpenbPods(text, "p.csv");
  if (!r.ok()) FAIL(r.status().ToString());
  return r.value();
}

TEST_CASE("a node row gives its name, CPU, memory, GPU count and model", "[openb]") {
  Result<std::vector<OpenbNode>> r = ParseOpenbNodes(
      std::string(kNodeHeader) + "openb-node-0000,64000,262144,2,P100\nopenb-node-1,32000,1,0,\n",
      "n.csv");
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 2);
  const OpenbNode& n = r.value()[0];
  CHECK(n.name == "openb-node-0000");
  CHECK(n.cpu_milli == 64000);
  CHECK(n.memory_mib == 262144);
  CHECK(n.gpus == 2);
  CHECK(n.model == "P100");
  CHECK(r.value()[1].gpus == 0);
  CHECK(r.value()[1].model.empty());  // a CPU-only node of the all-node file
}

TEST_CASE("CRLF line ends, a byte-order mark, blank lines and no final newline are accepted",
          "[openb]") {
  Result<std::vector<OpenbNode>> r = ParseOpenbNodes(
      "\xEF\xBB\xBFsn,cpu_milli,memory_mib,gpu,model\r\n\r\nn0,1,2,3,T4\r\n  \r\nn1,4,5,6,G2",
      "n.csv");
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 2);
  CHECK(r.value()[0].model == "T4");
  CHECK(r.value()[1].name == "n1");
  CHECK(r.value()[1].gpus == 6);
}

TEST_CASE("a node file with the wrong header names the missing columns", "[openb]") {
  CHECK(NodeError("sn,cpu_milli,memory_mib\n") ==
        "n.csv:line 1: expected the header 'sn,cpu_milli,memory_mib,gpu,model' "
        "(missing columns: gpu, model)");
  CHECK(NodeError("\nsn,cpu_milli,memory_mib,model,gpu\n") ==
        "n.csv:line 2: expected the header 'sn,cpu_milli,memory_mib,gpu,model' "
        "(got 'sn,cpu_milli,memory_mib,model,gpu')");
  CHECK(NodeError("") == "n.csv:line 1: empty file: no header line");
  CHECK(NodeError("\r\n\n") == "n.csv:line 1: empty file: no header line");
}

TEST_CASE("bad node rows are errors at their line naming the column", "[openb]") {
  const std::string h = kNodeHeader;
  CHECK(NodeError(h + "n0,1,2,3\n") == "n.csv:line 2: expected 5 fields, got 4");
  CHECK(NodeError(h + "n0,1,2,3,T4,x\n") == "n.csv:line 2: expected 5 fields, got 6");
  CHECK(NodeError(h + ",1,2,3,T4\n") == "n.csv:line 2: sn is empty");
  CHECK(NodeError(h + "n0,1.5,2,3,T4\n") ==
        "n.csv:line 2: cpu_milli '1.5' is not a non-negative integer");
  CHECK(NodeError(h + "n0,1,-2,3,T4\n") ==
        "n.csv:line 2: memory_mib '-2' is not a non-negative integer");
  CHECK(NodeError(h + "n0,1,2,,T4\n") == "n.csv:line 2: gpu '' is not a non-negative integer");
  CHECK(NodeError(h + "n0,1,2,65,T4\n") == "n.csv:line 2: gpu 65 is not in 0..64");
  CHECK(NodeError(h + "\nn0,1,2,3,T4\nn1,99999999999999999999,2,3,T4\n") ==
        "n.csv:line 4: cpu_milli '99999999999999999999' is too large");
  CHECK(NodeError(h + "\"n0\",1,2,3,T4\n") ==
        "n.csv:line 2: quoted fields are not supported (found '\"')");
}

TEST_CASE("error kinds: structure is a parse error, a bad value an invalid argument",
          "[openb]") {
  CHECK(ParseOpenbNodes("sn\n", "n.csv").status().code() == StatusCode::kParseError);
  CHECK(ParseOpenbPods(std::string(kPodHeader) + "p,1\n", "p.csv").status().code() ==
        StatusCode::kParseError);
  Result<std::vector<OpenbPod>> bad =
      ParseOpenbPods(std::string(kPodHeader) + "p,x,1,1,1,,LS,Running,0,0,0\n", "p.csv");
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK(bad.status().location().file == "p.csv");
  CHECK(bad.status().location().json_pointer == "line 2");
}

TEST_CASE("a pod row becomes the shape the openb simulator sees", "[openb]") {
  const std::vector<OpenbPod> pods = Pods(std::string(kPodHeader) +
                                          "p0,6000,12288,1,460,,LS,Running,427061,12902960,427061\n"
                                          "p1,12000,16384,8,1000,G2,LS,Failed,0,1,0\n");
  REQUIRE(pods.size() == 2);
  CHECK(pods[0].name == "p0");
  CHECK(pods[0].cpu_milli == 6000);
  CHECK(pods[0].memory_mib == 12288);
  CHECK(pods[0].shape == PodShape{.cpu_milli = 6000, .gpu_milli = 460, .num_gpu = 1, .gpu_type = ""});
  CHECK(pods[1].shape ==
        PodShape{.cpu_milli = 12000, .gpu_milli = 1000, .num_gpu = 8, .gpu_type = "G2"});
}

TEST_CASE("gpu_milli is clipped to one GPU", "[openb]") {
  const std::vector<OpenbPod> pods =
      Pods("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1,1,1,1500\np1,1,1,2,0\n");
  CHECK(pods[0].shape.gpu_milli == 1000);
  CHECK(pods[1].shape.gpu_milli == 0);
  CHECK(pods[1].shape.num_gpu == 2);
}

TEST_CASE("a CPU-only pod has no milli-GPU and no GPU type", "[openb]") {
  const std::vector<OpenbPod> pods = Pods(std::string(kPodHeader) + "p0,4000,0,0,500,T4,BE,,,,\n");
  CHECK(pods[0].shape == PodShape{.cpu_milli = 4000, .gpu_milli = 0, .num_gpu = 0, .gpu_type = ""});
  CHECK(pods[0].memory_mib == 0);
}

TEST_CASE("empty pieces of gpu_spec are dropped", "[openb]") {
  const std::vector<OpenbPod> pods = Pods(
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n"
      "p0,1,1,1,1000,V100M16|V100M32\np1,1,1,1,1000,|V100M16||V100M32|\np2,1,1,1,1000,||\n"
      "p3,1,1,1,1000,\n");
  CHECK(pods[0].shape.gpu_type == "V100M16|V100M32");
  CHECK(pods[1].shape.gpu_type == "V100M16|V100M32");
  CHECK(pods[2].shape.gpu_type.empty());
  CHECK(pods[3].shape.gpu_type.empty());
}

TEST_CASE("pod columns are found by header name and gpu_spec may be absent", "[openb]") {
  const std::vector<OpenbPod> pods =
      Pods("qos,gpu_milli,num_gpu,memory_mib,cpu_milli,name\r\nLS,300,1,2048,8000,p0\r\n");
  REQUIRE(pods.size() == 1);
  CHECK(pods[0].name == "p0");
  CHECK(pods[0].memory_mib == 2048);
  CHECK(pods[0].shape ==
        PodShape{.cpu_milli = 8000, .gpu_milli = 300, .num_gpu = 1, .gpu_type = ""});
}

TEST_CASE("a pod file with the wrong header names the missing columns", "[openb]") {
  CHECK(PodError("name,cpu_milli,memory_mib,gpu_spec\n") ==
        "p.csv:line 1: missing required columns: num_gpu, gpu_milli");
  CHECK(PodError("sn,cpu_milli,memory_mib,gpu,model\n") ==
        "p.csv:line 1: missing required columns: name, num_gpu, gpu_milli");
  CHECK(PodError("name,cpu_milli,memory_mib,num_gpu,gpu_milli,name\n") ==
        "p.csv:line 1: column 'name' appears twice");
  CHECK(PodError("\n\n") == "p.csv:line 1: empty file: no header line");
}

TEST_CASE("bad pod rows are errors at their line naming the column", "[openb]") {
  const std::string h = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n";
  CHECK(PodError(h + "p0,1,1,1,1000\n") == "p.csv:line 2: expected 6 fields, got 5");
  CHECK(PodError(h + " ,1,1,1,1000,\n") == "p.csv:line 2: name is empty");
  CHECK(PodError(h + "p0,1e3,1,1,1000,\n") ==
        "p.csv:line 2: cpu_milli '1e3' is not a non-negative integer");
  CHECK(PodError(h + "p0,1,x,1,1000,\n") ==
        "p.csv:line 2: memory_mib 'x' is not a non-negative integer");
  CHECK(PodError(h + "p0,1,1,-1,1000,\n") ==
        "p.csv:line 2: num_gpu '-1' is not a non-negative integer");
  CHECK(PodError(h + "p0,1,1,65,1000,\n") == "p.csv:line 2: num_gpu 65 is not in 0..64");
  CHECK(PodError(h + "p0,1,1,1,-500,\n") ==
        "p.csv:line 2: gpu_milli '-500' is not a non-negative integer");
  CHECK(PodError(h + "p0,1,1,1,+5,\n") ==
        "p.csv:line 2: gpu_milli '+5' is not a non-negative integer");
  CHECK(PodError(h + "p0,1,1,1,1000,\"T4\"\n") ==
        "p.csv:line 2: quoted fields are not supported (found '\"')");
}

TEST_CASE("an unreadable file is an I/O error naming the path", "[openb]") {
  const std::string missing = "/nonexistent/openb_pod_list_default.csv";
  Result<std::vector<OpenbPod>> pods = LoadOpenbPods(missing);
  REQUIRE_FALSE(pods.ok());
  CHECK(pods.status().code() == StatusCode::kIoError);
  CHECK(pods.status().ToString() == missing + ": cannot read file: No such file or directory");
  Result<std::vector<OpenbNode>> nodes = LoadOpenbNodes(MIGSIM_SOURCE_DIR);  // a directory
  REQUIRE_FALSE(nodes.ok());
  CHECK(nodes.status().ToString() ==
        std::string(MIGSIM_SOURCE_DIR) +
            ": not a regular file (a directory); migsim reads scenarios, traces and configs from "
            "regular files");
  // A device would be read forever: refused before reading.
  Result<std::vector<OpenbPod>> zeros = LoadOpenbPods("/dev/zero");
  REQUIRE_FALSE(zeros.ok());
  CHECK_THAT(zeros.status().ToString(),
             Catch::StartsWith("/dev/zero: not a regular file (a character device)"));
}

TEST_CASE("a row that is not UTF-8 is refused at its line: names end up in JSON outputs",
          "[openb]") {
  CHECK(NodeError(std::string(kNodeHeader) + "node-\xff,32000,1,0,\n") ==
        "n.csv:line 2: not valid UTF-8");
  CHECK(PodError(std::string(kPodHeader) + "p\xc3,1000,1,0,0,,BE,Running,0,1,0\n") ==
        "p.csv:line 2: not valid UTF-8");
  // Overlong encodings and surrogates are not UTF-8 either; real characters are.
  CHECK(NodeError(std::string(kNodeHeader) + "n\xc0\xaf,32000,1,0,\n") ==
        "n.csv:line 2: not valid UTF-8");
  CHECK(NodeError(std::string(kNodeHeader) + "n\xed\xa0\x80,32000,1,0,\n") ==
        "n.csv:line 2: not valid UTF-8");
  CHECK(NodeError(std::string(kNodeHeader) + "n\x1b[31m,32000,1,0,\n") ==
        "n.csv:line 2: a control character (byte 0x1b)");
  Result<std::vector<OpenbNode>> ok =
      ParseOpenbNodes(std::string(kNodeHeader) + "n\xc3\xa9-\xf0\x9f\x9a\x80,32000,1,0,\n", "n.csv");
  CHECK(ok.ok());
}

TEST_CASE("node and pod sizes beyond any machine are refused at their line", "[openb]") {
  CHECK(NodeError(std::string(kNodeHeader) + "n,100000001,1,0,\n") ==
        "n.csv:line 2: cpu_milli 100000001 is not in 0..100000000");
  CHECK(PodError(std::string(kPodHeader) + "p,1000,9223372036854775807,0,0,,BE,Running,0,1,0\n") ==
        "p.csv:line 2: memory_mib 9223372036854775807 is not in 0..1073741824");
}

TEST_CASE("spaces around gpu_spec pieces are dropped like empty pieces", "[openb]") {
  const std::vector<OpenbPod> pods =
      Pods(std::string(kPodHeader) + "p,1000,1,1,500,V100M16 | T4||,BE,Running,0,1,0\n");
  CHECK(pods[0].shape.gpu_type == "V100M16|T4");
}

// The real trace (tests/support/openb_data.h): skipped where the shared data is absent.
std::string OpenbFile(const std::string& name) { return test::OpenbDataDirOrSkip() + name; }

TEST_CASE("the openb GPU-node file has the cluster of protocol section 1.1",
          "[openb][.][openb-data]") {
  Result<std::vector<OpenbNode>> r = LoadOpenbNodes(OpenbFile("openb_node_list_gpu_node.csv"));
  if (!r.ok()) FAIL(r.status().ToString());
  int64_t gpus = 0, cpu = 0, memory = 0;
  std::map<std::string, int> nodes_per_model;
  for (const OpenbNode& n : r.value()) {
    gpus += n.gpus;
    cpu += n.cpu_milli;
    memory += n.memory_mib;
    ++nodes_per_model[n.model];
  }
  CHECK(r.value().size() == 1213);
  CHECK(gpus == 6212);
  CHECK(cpu == 107'018'000);
  CHECK(memory == 503'828'480);
  CHECK(nodes_per_model == std::map<std::string, int>{{"A10", 2}, {"G2", 549}, {"G3", 39},
                                                      {"P100", 134}, {"T4", 404},
                                                      {"V100M16", 55}, {"V100M32", 30}});
}

TEST_CASE("the openb default pod file has the classes of protocol section 1.2",
          "[openb][.][openb-data]") {
  Result<std::vector<OpenbPod>> r = LoadOpenbPods(OpenbFile("openb_pod_list_default.csv"));
  if (!r.ok()) FAIL(r.status().ToString());
  int64_t milli = 0;
  int cpu_only = 0, sharing = 0, whole = 0;
  std::map<int, int> multi;  // num_gpu -> pods, for num_gpu > 1
  for (const OpenbPod& p : r.value()) {
    milli += int64_t{p.shape.gpu_milli} * p.shape.num_gpu;
    if (p.shape.num_gpu == 0) ++cpu_only;
    if (p.shape.num_gpu == 1) ++(p.shape.gpu_milli < kMilliPerGpu ? sharing : whole);
    if (p.shape.num_gpu > 1) ++multi[p.shape.num_gpu];
  }
  CHECK(r.value().size() == 8152);
  CHECK(milli == 6'086'800);
  CHECK(cpu_only == 1088);
  CHECK(sharing == 3078);
  CHECK(whole == 3911);
  CHECK(multi == std::map<int, int>{{2, 16}, {4, 15}, {8, 44}});
}

TEST_CASE("every openb pod and node file parses", "[openb][.][openb-data]") {
  // The 24 pod traces of alibaba/clusterdata cluster-trace-gpu-v2023 (cpu0 included).
  for (const char* trace :
       {"cpu0", "cpu037", "cpu050", "cpu072", "cpu100", "cpu200", "cpu235", "cpu250", "cpu300",
        "default", "gpushare20", "gpushare40", "gpushare60", "gpushare80", "gpushare100",
        "gpuspec05", "gpuspec10", "gpuspec20", "gpuspec25", "gpuspec33", "multigpu20",
        "multigpu30", "multigpu40", "multigpu50"}) {
    INFO(trace);
    Result<std::vector<OpenbPod>> r =
        LoadOpenbPods(OpenbFile("openb_pod_list_" + std::string(trace) + ".csv"));
    if (!r.ok()) FAIL_CHECK(r.status().ToString());
    if (r.ok()) CHECK(r.value().size() > 7000);
  }
  for (const char* list : {"gpu_node", "all_node"}) {
    INFO(list);
    Result<std::vector<OpenbNode>> r =
        LoadOpenbNodes(OpenbFile("openb_node_list_" + std::string(list) + ".csv"));
    if (!r.ok()) FAIL_CHECK(r.status().ToString());
    if (r.ok()) CHECK(r.value().size() >= 1213);
  }
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("a pod row keeps its times and its line, an empty time is no time", "[openb]") {
  const std::vector<OpenbPod> pods =
      Pods(std::string(kPodHeader) + "a,1000,1,0,0,,BE,Running,5,9,6\n\nb,1000,1,0,0,,BE,Pending,7,8,\n");
  REQUIRE(pods.size() == 2);
  CHECK(pods[0].creation_s == 5);
  CHECK(pods[0].deletion_s == 9);
  CHECK(pods[0].scheduled_s == 6);
  CHECK(pods[0].line == 2);
  CHECK(pods[1].scheduled_s == std::nullopt);
  CHECK(pods[1].line == 4);
  CHECK(Pods("name,cpu_milli,memory_mib,num_gpu,gpu_milli\nc,1,1,0,0\n")[0].creation_s ==
        std::nullopt);
}

TEST_CASE("a bad time is an error at its line naming the column", "[openb]") {
  CHECK(PodError(std::string(kPodHeader) + "a,1000,1,0,0,,BE,Running,-5,9,6\n") ==
        "p.csv:line 2: creation_time '-5' is not a non-negative integer");
}

}  // namespace
}  // namespace migsim
