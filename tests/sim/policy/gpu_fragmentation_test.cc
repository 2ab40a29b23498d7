#include "sim/policy/gpu_fragmentation.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/policy/gpu_share.h"
#include "tests/support/openb_data.h"

namespace migsim {
namespace {

// The 35 typical shapes of openb_pod_list_default.csv with their counts (protocol §5.1),
// in typical-pod order. Kept here so the vectors run without the shared data.
struct ShapeCount {
  int64_t cpu_milli;
  int32_t gpu_milli;
  int32_t num_gpu;
  int64_t count;
};
constexpr ShapeCount kDefaultTypical[] = {
    {3152, 810, 1, 1047},  {11300, 1000, 1, 874}, {11400, 1000, 1, 599}, {3152, 1000, 1, 470},
    {11908, 470, 1, 388},  {12500, 0, 0, 366},    {8000, 470, 1, 360},   {12000, 1000, 1, 326},
    {32000, 0, 0, 290},    {18708, 1000, 1, 255}, {11908, 650, 1, 237},  {4000, 320, 1, 232},
    {9810, 1000, 1, 195},  {8000, 0, 0, 185},     {8000, 1000, 1, 164},  {4000, 1000, 1, 159},
    {15700, 1000, 1, 158}, {11908, 1000, 1, 153}, {16000, 1000, 1, 150}, {4000, 230, 1, 122},
    {15400, 0, 0, 120},    {6000, 460, 1, 120},   {16500, 0, 0, 95},     {14200, 1000, 1, 93},
    {24200, 1000, 1, 84},  {3152, 590, 1, 75},    {8000, 320, 1, 72},    {4152, 550, 1, 72},
    {11900, 1000, 1, 55},  {4000, 160, 1, 54},    {4152, 370, 1, 45},    {4000, 220, 1, 43},
    {8200, 1000, 1, 41},   {15200, 1000, 1, 36},  {4152, 810, 1, 31}};
constexpr int64_t kDefaultKeptPods = 7766;

PodShape Shape(int64_t cpu_milli, int32_t gpu_milli, int32_t num_gpu, std::string type = "") {
  return PodShape{cpu_milli, gpu_milli, num_gpu, std::move(type)};
}

// A trace holding exactly the kept pods of the default trace: its typical list at full
// coverage is the default typical list.
std::vector<TypicalPod> DefaultTypicalPods() {
  std::vector<PodShape> pods;
  for (const ShapeCount& s : kDefaultTypical) {
    pods.insert(pods.end(), s.count, Shape(s.cpu_milli, s.gpu_milli, s.num_gpu));
  }
  return TypicalPods(pods, 1.0);
}

// The default pod CSV read as the openb converter does (gpu_milli clipped to 0..1000 and
// 0 for CPU-only pods; empty type pieces dropped). Empty when the shared data is absent.
// The default trace's pods; ends the test process as skipped without the data.
std::vector<PodShape> ReadDefaultTrace() {
  const std::filesystem::path path = test::OpenbDataDirOrSkip() + "openb_pod_list_default.csv";
  std::vector<PodShape> pods;
  std::ifstream in(path);
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header: name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() < 6) continue;
    const int32_t num_gpu = std::stoi(cells[3]);
    const int32_t milli = num_gpu == 0 ? 0 : std::clamp(std::stoi(cells[4]), 0, kMilliPerGpu);
    std::string type;
    std::stringstream spec(cells[5]);
    for (std::string piece; std::getline(spec, piece, '|');) {
      if (piece.empty()) continue;
      type += (type.empty() ? "" : "|") + piece;
    }
    pods.push_back(Shape(std::stoll(cells[1]), milli, num_gpu, type));
  }
  return pods;
}

GpuShareNode Node(int64_t cpu_left_milli, std::vector<int32_t> free, std::string model) {
  return GpuShareNode{cpu_left_milli, std::move(free), std::move(model)};
}

// The FGD score of putting a sharing pod on GPU `gpu` of `node` (protocol §4.6).
int64_t ScoreOnGpu(const GpuShareNode& node, const PodShape& pod, size_t gpu,
                   std::span<const TypicalPod> typical) {
  GpuShareNode after = node;
  after.cpu_left_milli -= pod.cpu_milli;
  after.gpu_free_milli[gpu] -= pod.gpu_milli;
  return FgdScore(NodeFragmentation(node, typical), NodeFragmentation(after, typical));
}

// The FGD score of a CPU-only or whole-GPU pod: it takes the lowest-index free GPUs.
int64_t ScoreWhole(const GpuShareNode& node, const PodShape& pod,
                   std::span<const TypicalPod> typical) {
  GpuShareNode after = node;
  after.cpu_left_milli -= pod.cpu_milli;
  int32_t needed = pod.gpu_milli == 0 ? 0 : pod.num_gpu;
  for (int32_t& free : after.gpu_free_milli) {
    if (needed > 0 && free == kMilliPerGpu) {
      free = 0;
      --needed;
    }
  }
  return FgdScore(NodeFragmentation(node, typical), NodeFragmentation(after, typical));
}

// §5.2 written out directly, with no shortcut: the reference the fast path must match.
FragBreakdown NaiveBreakdown(const GpuShareNode& node, std::span<const TypicalPod> typical) {
  FragBreakdown out;
  const double idle = static_cast<double>(node.idle_milli());
  for (const TypicalPod& pod : typical) {
    const bool cpu_fits = node.cpu_left_milli >= pod.shape.cpu_milli;
    if (pod.shape.gpu_milli == 0) {
      (cpu_fits ? out.xl : out.xr) += pod.p * idle;
      continue;
    }
    if (!ModelAllowed(pod.shape.gpu_type, node.model)) {
      out.na += pod.p * idle;
      continue;
    }
    int32_t fitting = 0;
    int64_t below = 0;
    for (int32_t g : node.gpu_free_milli) {
      if (g >= pod.shape.gpu_milli) {
        ++fitting;
      } else {
        below += g;
      }
    }
    const bool gpu_fits = fitting >= pod.shape.num_gpu;
    if (gpu_fits && cpu_fits) {
      out.q2 += pod.p * static_cast<double>(below);
      out.q3 += pod.p * static_cast<double>(node.idle_milli() - below);
    } else if (gpu_fits) {
      out.q4 += pod.p * idle;
    } else {
      (cpu_fits ? out.q2 : out.q1) += pod.p * idle;
    }
  }
  return out;
}

TEST_CASE("a GPU type constraint admits exactly the models it names", "[fragmentation]") {
  CHECK(ModelAllowed("", "G2"));
  CHECK(ModelAllowed("|", "G2"));
  CHECK(ModelAllowed("||", "T4"));
  CHECK(ModelAllowed("G2", "G2"));
  CHECK_FALSE(ModelAllowed("G2", "G3"));
  CHECK(ModelAllowed("V100M16|V100M32", "V100M32"));
  CHECK_FALSE(ModelAllowed("V100M16|V100M32", "V100M"));
  CHECK_FALSE(ModelAllowed("V100M16|V100M32", "V100M16|V100M32"));
  CHECK(ModelAllowed("|T4||P100|", "P100"));
  CHECK_FALSE(ModelAllowed("|T4||P100|", "G2"));
  CHECK_FALSE(ModelAllowed("T4", ""));
}

TEST_CASE("a typical pod splits its type constraint once and admits the same models",
          "[fragmentation]") {
  TypicalPod pod(Shape(4000, 500, 1, "|T4||P100|"), 1.0);
  CHECK(pod.models() == std::vector<std::string>{"T4", "P100"});
  for (const char* model : {"T4", "P100", "G2", ""}) {
    CHECK(pod.Admits(model) == ModelAllowed(pod.shape.gpu_type, model));
  }
  CHECK(TypicalPod(Shape(4000, 500, 1, "||"), 1.0).Admits("G2"));
  CHECK(TypicalPod(Shape(4000, 0, 0), 1.0).cpu_only());
  CHECK_FALSE(TypicalPod(Shape(4000, 500, 1), 1.0).cpu_only());
}

TEST_CASE("typical pods sort by count, then by the shape tuple descending", "[fragmentation]") {
  // Counts: A 3, B/C/D/E tie at 2, F 1. Total 12; 0.75 coverage = 9 pods.
  const PodShape a = Shape(1000, 500, 1);
  const PodShape b = Shape(2000, 0, 0);          // largest cpu among the tied
  const PodShape c = Shape(1000, 700, 1, "G2");  // then larger gpu_milli ...
  const PodShape d = Shape(1000, 700, 1, "");    // ... then larger type string
  const PodShape e = Shape(1000, 300, 2);
  const PodShape f = Shape(9000, 1000, 8);
  const std::vector<PodShape> pods = {e, a, d, b, c, f, a, e, c, d, b, a};

  SECTION("the key that crosses the coverage is kept") {
    std::vector<TypicalPod> typical = TypicalPods(pods, 0.75);
    REQUIRE(typical.size() == 4);  // 3 + 2 + 2 = 7 < 9, the fourth makes 9
    CHECK(typical[0].shape == a);
    CHECK(typical[1].shape == b);
    CHECK(typical[2].shape == c);
    CHECK(typical[3].shape == d);
    CHECK(typical[0].p == 3.0 / 9);
    CHECK(typical[3].p == 2.0 / 9);
  }
  SECTION("full coverage keeps every key, ties in descending tuple order") {
    std::vector<TypicalPod> typical = TypicalPods(pods, 1.0);
    REQUIRE(typical.size() == 6);
    CHECK(typical[4].shape == e);
    CHECK(typical[5].shape == f);
    double sum = 0;
    for (const TypicalPod& pod : typical) sum += pod.p;
    CHECK(sum == Approx(1.0));
  }
  SECTION("a coverage met exactly stops at the key that reaches it") {
    CHECK(TypicalPods(pods, 0.25).size() == 1);  // a alone covers 3 of 12
  }
  SECTION("an empty trace has no typical pods") {
    CHECK(TypicalPods(std::vector<PodShape>{}).empty());
  }
}

TEST_CASE("the default trace's typical pods match protocol 5.1",
          "[fragmentation][.][openb-data]") {
  const std::vector<PodShape> pods = ReadDefaultTrace();
  REQUIRE(pods.size() == 8152);
  CHECK(TypicalPods(pods, 1.0).size() == 91);
  const std::vector<TypicalPod> typical = TypicalPods(pods);
  REQUIRE(typical.size() == std::size(kDefaultTypical));
  for (size_t i = 0; i < typical.size(); ++i) {
    const ShapeCount& s = kDefaultTypical[i];
    INFO("typical pod " << i);
    CHECK(typical[i].shape == Shape(s.cpu_milli, s.gpu_milli, s.num_gpu));
    CHECK(typical[i].p == static_cast<double>(s.count) / static_cast<double>(kDefaultKeptPods));
  }
}

TEST_CASE("the default typical list has the probabilities of protocol 5.1", "[fragmentation]") {
  const std::vector<TypicalPod> typical = DefaultTypicalPods();
  REQUIRE(typical.size() == 35);
  int64_t kept = 0;
  for (const ShapeCount& s : kDefaultTypical) kept += s.count;
  CHECK(kept == kDefaultKeptPods);
  CHECK(static_cast<double>(kept) / 8152 > 0.95);
  CHECK(static_cast<double>(kept - 31) / 8152 < 0.95);  // without the last key: short

  double cpu_only_mass = 0;
  for (const TypicalPod& pod : typical) {
    CHECK(pod.shape.num_gpu <= 1);
    if (pod.cpu_only()) cpu_only_mass += pod.p;
  }
  CHECK(cpu_only_mass == Approx(0.13598).margin(5e-6));
  CHECK(typical[0].shape == Shape(3152, 810, 1));
  CHECK(typical[0].p == Approx(0.13482).margin(5e-6));
  CHECK(typical[1].shape == Shape(11300, 1000, 1));
  CHECK(typical[1].p == Approx(0.11254).margin(5e-6));
  CHECK(typical[2].p == Approx(0.07713).margin(5e-6));
  CHECK(typical[3].p == Approx(0.06052).margin(5e-6));
  CHECK(typical[4].p == Approx(0.04996).margin(5e-6));
  CHECK(typical[5].shape == Shape(12500, 0, 0));
  CHECK(typical[5].p == Approx(0.04713).margin(5e-6));
  CHECK(typical[6].p == Approx(0.04636).margin(5e-6));
  CHECK(typical[7].p == Approx(0.04198).margin(5e-6));
  CHECK(typical[8].shape == Shape(32000, 0, 0));
  CHECK(typical[8].p == Approx(0.03734).margin(5e-6));
  CHECK(typical[34].shape == Shape(4152, 810, 1));
  CHECK(typical[34].p == 31.0 / kDefaultKeptPods);
}

TEST_CASE("empty nodes have the fragmentation of protocol 5.5", "[fragmentation]") {
  const std::vector<TypicalPod> typical = DefaultTypicalPods();

  SECTION("an empty G2 node: only XL is fragment, the rest is Q3") {
    FragBreakdown b = NodeFragmentationBreakdown(
        Node(96000, std::vector<int32_t>(8, kMilliPerGpu), "G2"), typical);
    CHECK(b.fragment() == Approx(1087.82).margin(0.005));
    CHECK(b.xl == Approx(1087.82).margin(0.005));
    CHECK(b.q3 == Approx(6912.18).margin(0.005));
    CHECK(b.idle() == Approx(8000));
  }
  SECTION("an empty T4 node with 104 vCPU") {
    CHECK(NodeFragmentation(Node(104000, {1000, 1000}, "T4"), typical) ==
          Approx(271.95).margin(0.005));
  }
  SECTION("an empty one-GPU P100 node with 8 vCPU") {
    FragBreakdown b = NodeFragmentationBreakdown(Node(8000, {1000}, "P100"), typical);
    CHECK(b.fragment() == Approx(605.20).margin(0.005));
    CHECK(b.q4 == Approx(469.22).margin(0.005));
    CHECK(b.xr == Approx(112.16).margin(0.005));
    CHECK(b.xl == Approx(23.82).margin(0.005));
    CHECK(b.q3 == Approx(394.80).margin(0.005));
    CHECK(b.q1 == 0);
    CHECK(b.q2 == 0);
    CHECK(b.na == 0);
  }
}

TEST_CASE("a single typical pod that lacks CPU puts the whole idle GPU in Q4", "[fragmentation]") {
  const std::vector<TypicalPod> typical = {TypicalPod(Shape(6000, 465, 1), 0.0933)};
  FragBreakdown b = NodeFragmentationBreakdown(Node(1000, {200, 1000, 1000, 500}, "1080"), typical);
  CHECK(b.fragment() == Approx(251.91).margin(0.005));
  CHECK(b.q4 == b.fragment());
}

TEST_CASE("FGD scores on a partly used G2 node match protocol 5.5", "[fragmentation]") {
  const std::vector<TypicalPod> typical = DefaultTypicalPods();
  std::vector<int32_t> free(7, kMilliPerGpu);
  free.push_back(190);
  const GpuShareNode node = Node(60000, free, "G2");
  REQUIRE(NodeFragmentation(node, typical) == Approx(1140.52).margin(0.005));

  SECTION("a 0.81-GPU sharing pod scores 48, first on GPU 0") {
    const PodShape pod = Shape(3152, 810, 1);
    for (size_t gpu = 0; gpu < 7; ++gpu) CHECK(ScoreOnGpu(node, pod, gpu, typical) == 48);
  }
  SECTION("a 0.16-GPU sharing pod scores 53 in the 190 gap and 40 on a free GPU") {
    const PodShape pod = Shape(4000, 160, 1);
    CHECK(ScoreOnGpu(node, pod, 7, typical) == 53);
    for (size_t gpu = 0; gpu < 7; ++gpu) CHECK(ScoreOnGpu(node, pod, gpu, typical) == 40);
  }
  SECTION("a whole-GPU pod scores 53") {
    CHECK(ScoreWhole(node, Shape(11300, 1000, 1), typical) == 53);
  }
  SECTION("a CPU-only pod that changes no category scores 50") {
    CHECK(ScoreWhole(node, Shape(12500, 0, 0), typical) == 50);
  }
}

TEST_CASE("the FGD score is a truncated sigmoid of the fragmentation drop", "[fragmentation]") {
  CHECK(FgdScore(1000, 1000) == 50);
  CHECK(FgdScore(0, 8000) == 0);
  CHECK(FgdScore(8000, 0) == 99);
  CHECK(FgdScore(1000, 1000.0001) == 49);
  CHECK(FgdScore(1100, 1000) == 52);  // 100 × sigmoid(0.1) = 52.497...
}

// A node of `model` with random free CPU and min_gpus..8 GPUs, each at one of `levels`.
GpuShareNode RandomNode(std::mt19937& rng, const std::string& model, int min_gpus,
                        const std::vector<int32_t>& levels) {
  GpuShareNode node;
  node.cpu_left_milli = std::uniform_int_distribution<int64_t>(0, 64000)(rng);
  node.model = model;
  const int gpus = std::uniform_int_distribution<int>(min_gpus, 8)(rng);
  for (int i = 0; i < gpus; ++i) {
    node.gpu_free_milli.push_back(
        levels[std::uniform_int_distribution<size_t>(0, levels.size() - 1)(rng)]);
  }
  return node;
}

TEST_CASE("the shortcuts give the same bits as the plain definition", "[fragmentation]") {
  std::vector<TypicalPod> typical = DefaultTypicalPods();
  typical.emplace_back(Shape(8000, 1000, 2), 0.01);
  typical.emplace_back(Shape(16000, 1000, 4, "G2|T4"), 0.01);
  typical.emplace_back(Shape(4000, 500, 1, "P100"), 0.01);
  const std::vector<int32_t> levels = {0, 0, 1000, 1000, 1000, 190, 500, 810, 470, 1};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const GpuShareNode node = RandomNode(rng, trial % 3 == 0 ? "P100" : "G2", 0, levels);
    const FragBreakdown fast = NodeFragmentationBreakdown(node, typical);
    const FragBreakdown naive = NaiveBreakdown(node, typical);
    INFO("trial " << trial);
    CHECK(fast.q1 == naive.q1);
    CHECK(fast.q2 == naive.q2);
    CHECK(fast.q3 == naive.q3);
    CHECK(fast.q4 == naive.q4);
    CHECK(fast.xl == naive.xl);
    CHECK(fast.xr == naive.xr);
    CHECK(fast.na == naive.na);
    CHECK(NodeFragmentation(node, typical) == naive.fragment());
  }
}

TEST_CASE("the fragmentation depends on the GPUs' free milli as a multiset, not their order",
          "[fragmentation]") {
  std::vector<TypicalPod> typical = DefaultTypicalPods();
  typical.emplace_back(Shape(8000, 1000, 2), 0.01);
  typical.emplace_back(Shape(4000, 500, 1, "P100"), 0.01);
  const std::vector<int32_t> levels = {0, 1000, 1000, 190, 500, 810, 470, 1};
  std::mt19937 rng(11);
  for (int trial = 0; trial < 500; ++trial) {
    const GpuShareNode node = RandomNode(rng, trial % 2 == 0 ? "P100" : "G2", 1, levels);
    GpuShareNode shuffled = node;
    std::shuffle(shuffled.gpu_free_milli.begin(), shuffled.gpu_free_milli.end(), rng);
    INFO("trial " << trial);
    CHECK(NodeFragmentation(shuffled, typical) == NodeFragmentation(node, typical));
    CHECK(NodeFragmentationBreakdown(shuffled, typical).q3 ==
          NodeFragmentationBreakdown(node, typical).q3);
  }
}

}  // namespace
}  // namespace migsim
