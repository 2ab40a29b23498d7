// The built-in catalog: the JSON files of catalog/ load, carry their sources, and give the
// figures the catalog had when it was C++ (sim/cluster/gpu_catalog.cc and node_type.cc
// before the catalog became data).

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/cluster/mig_layout.h"
#include "sim/io/hardware_catalog.h"

namespace migsim {
namespace {

struct ModelRow {
  const char* name;
  const char* label;
  int memory_mib, sms, memory_slices, compute_slices;
  double max_watts, idle_watts;
  std::vector<const char*> aliases;
  size_t profiles;
};

struct TypeRow {
  const char* name;
  int vcpu;
  double memory_gib;
  int gpus;
  const char* gpu;
  double price;
};

}  // namespace

TEST_CASE("the built-in catalog files load without error", "[io][catalog]") {
  CHECK(BuiltinCatalogStatus().ToString() == "OK");
  CHECK(BuiltinCatalog().gpu_models().size() == AllGpuModels().size());
  CHECK(BuiltinCatalog().node_types().size() == AllNodeTypes().size());
}

TEST_CASE("every built-in model and node type cites its sources, and prices say where and when",
          "[io][catalog]") {
  for (const GpuModel& model : AllGpuModels()) {
    INFO(model.name);
    CHECK_FALSE(model.sources.empty());
  }
  for (const NodeType& type : AllNodeTypes()) {
    INFO(type.name);
    CHECK_FALSE(type.sources.empty());
    CHECK_FALSE(type.cloud.empty());
    CHECK_FALSE(type.region.empty());
    CHECK_FALSE(type.price_date.empty());
  }
}

TEST_CASE("the built-in A100-40GB is the model the C++ catalog built, field by field",
          "[io][catalog]") {
  const GpuModel* a100 = FindGpuModel("A100-40GB");
  REQUIRE(a100 != nullptr);
  CHECK(a100->name == "A100-SXM4-40GB");
  CHECK(a100->product_label == "NVIDIA-A100-SXM4-40GB");
  CHECK(a100->memory_mib == 40960);
  CHECK(a100->sms == 108);
  CHECK(a100->memory_slices == 8);
  CHECK(a100->compute_slices == 7);
  CHECK(a100->max_watts == 400);
  CHECK(a100->idle_watts == 52);
  CHECK_FALSE(a100->inferred_placements);
  struct Expected {
    const char* name;
    int id, g, mem;
    double gib;
    int sms, max;
    std::vector<int> starts;
    bool me, classic;
  };
  const std::vector<int> one = {0, 1, 2, 3, 4, 5, 6};
  const std::vector<Expected> expected = {
      {"1g.5gb", 19, 1, 1, 4.75, 14, 7, one, false, true},
      {"1g.5gb+me", 20, 1, 1, 4.75, 14, 1, one, true, false},
      {"1g.10gb", 15, 1, 2, 9.75, 14, 4, {0, 2, 4, 6}, false, false},
      {"2g.10gb", 14, 2, 2, 9.75, 28, 3, {0, 2, 4}, false, true},
      {"3g.20gb", 9, 3, 4, 19.62, 42, 2, {0, 4}, false, true},
      {"4g.20gb", 5, 4, 4, 19.62, 56, 1, {0}, false, true},
      {"7g.40gb", 0, 7, 8, 39.38, 98, 1, {0}, false, true}};
  REQUIRE(a100->profiles.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const MigProfile& p = a100->profiles[i];
    const Expected& e = expected[i];
    INFO(e.name);
    CHECK(p.name == e.name);
    CHECK(p.profile_id == e.id);
    CHECK(p.compute_slices == e.g);
    CHECK(p.memory_slices == e.mem);
    CHECK(p.memory_gib == e.gib);
    CHECK(p.sms == e.sms);
    CHECK(p.max_count == e.max);
    CHECK(p.starts == e.starts);
    CHECK(p.media_extensions == e.me);
    CHECK(p.classic == e.classic);
  }
  CHECK(EnumerateMaximalLayouts(*a100, true).size() == 19);
  CHECK(EnumerateMaximalLayouts(*a100, false).size() == 78);
}

TEST_CASE("the built-in models keep the C++ catalog's figures, order and aliases",
          "[io][catalog]") {
  const std::vector<ModelRow> rows = {
      {"A100-SXM4-40GB", "NVIDIA-A100-SXM4-40GB", 40960, 108, 8, 7, 400, 52, {"A100-40GB"}, 7},
      {"A100-SXM4-80GB", "NVIDIA-A100-SXM4-80GB", 81920, 108, 8, 7, 400, 60, {"A100-80GB"}, 7},
      {"H100-SXM5-80GB", "NVIDIA-H100-80GB-HBM3", 81920, 132, 8, 7, 700, 70, {"H100-80GB"}, 7},
      {"H200-SXM5-141GB", "NVIDIA-H200", 144384, 132, 8, 7, 700, 75, {"H200-141GB"}, 7},
      {"A30-24GB", "NVIDIA-A30", 24576, 56, 4, 4, 165, 27, {"A30"}, 5},
      {"V100-SXM2-16GB", "Tesla-V100-SXM2-16GB", 16384, 80, 0, 0, 300, 25, {"V100-16GB"}, 0},
      {"V100-SXM2-32GB", "Tesla-V100-SXM2-32GB", 32768, 80, 0, 0, 300, 43, {"V100-32GB"}, 0},
      {"A10G", "NVIDIA-A10G", 22888, 80, 0, 0, 300, 10, {"A10G-24GB"}, 0},
      {"T4", "Tesla-T4", 15360, 40, 0, 0, 70, 9, {"T4-16GB"}, 0}};
  REQUIRE(AllGpuModels().size() >= rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const GpuModel& m = AllGpuModels()[i];
    const ModelRow& r = rows[i];
    INFO(r.name);
    CHECK(m.name == r.name);
    CHECK(m.product_label == r.label);
    CHECK(m.memory_mib == r.memory_mib);
    CHECK(m.sms == r.sms);
    CHECK(m.memory_slices == r.memory_slices);
    CHECK(m.compute_slices == r.compute_slices);
    CHECK(m.max_watts == r.max_watts);
    CHECK(m.idle_watts == r.idle_watts);
    CHECK(m.profiles.size() == r.profiles);
    for (const char* alias : r.aliases) CHECK(FindGpuModel(alias) == &m);
  }
  // The H200's figures that differ from the A100's table (mig-parted#120's -lgip).
  const GpuModel& h200 = *FindGpuModel("H200-141GB");
  CHECK(h200.profiles[2].name == "1g.35gb");
  CHECK(h200.profiles[2].sms == 26);
  CHECK(h200.profiles[6].memory_gib == 139.75);
  const GpuModel& a30 = *FindGpuModel("A30");
  CHECK(a30.profiles[3].name == "2g.12gb+me");
  CHECK(a30.profiles[3].profile_id == 6);
  CHECK(a30.profiles[3].starts == std::vector<int>{0, 2});
  CHECK(EnumerateMaximalLayouts(a30, true).size() == 5);
}

TEST_CASE("the built-in node types keep the C++ catalog's figures and order", "[io][catalog]") {
  const std::vector<TypeRow> rows = {
      {"p4d.24xlarge", 96, 1152, 8, "A100-SXM4-40GB", 21.9576},
      {"p4de.24xlarge", 96, 1152, 8, "A100-SXM4-80GB", 27.4471},
      {"p5.4xlarge", 16, 256, 1, "H100-SXM5-80GB", 6.88},
      {"p5.48xlarge", 192, 2048, 8, "H100-SXM5-80GB", 55.04},
      {"p5e.48xlarge", 192, 2048, 8, "H200-SXM5-141GB", 43.26},
      {"p5en.48xlarge", 192, 2048, 8, "H200-SXM5-141GB", 63.296},
      {"p3.2xlarge", 8, 61, 1, "V100-SXM2-16GB", 3.06},
      {"p3.8xlarge", 32, 244, 4, "V100-SXM2-16GB", 12.24},
      {"p3.16xlarge", 64, 488, 8, "V100-SXM2-16GB", 24.48},
      {"p3dn.24xlarge", 96, 768, 8, "V100-SXM2-32GB", 31.212},
      {"g5.xlarge", 4, 16, 1, "A10G", 1.006},
      {"g5.2xlarge", 8, 32, 1, "A10G", 1.212},
      {"g5.4xlarge", 16, 64, 1, "A10G", 1.624},
      {"g5.8xlarge", 32, 128, 1, "A10G", 2.448},
      {"g5.12xlarge", 48, 192, 4, "A10G", 5.672},
      {"g5.16xlarge", 64, 256, 1, "A10G", 4.096},
      {"g5.24xlarge", 96, 384, 4, "A10G", 8.144},
      {"g5.48xlarge", 192, 768, 8, "A10G", 16.288},
      {"g4dn.xlarge", 4, 16, 1, "T4", 0.526},
      {"g4dn.2xlarge", 8, 32, 1, "T4", 0.752},
      {"g4dn.4xlarge", 16, 64, 1, "T4", 1.204},
      {"g4dn.8xlarge", 32, 128, 1, "T4", 2.176},
      {"g4dn.12xlarge", 48, 192, 4, "T4", 3.912},
      {"g4dn.16xlarge", 64, 256, 1, "T4", 4.352},
      {"g4dn.metal", 96, 384, 8, "T4", 7.824}};
  REQUIRE(AllNodeTypes().size() >= rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const NodeType& t = AllNodeTypes()[i];
    const TypeRow& r = rows[i];
    INFO(r.name);
    CHECK(t.name == r.name);
    CHECK(t.vcpu == r.vcpu);
    CHECK(t.memory_gib == r.memory_gib);
    CHECK(t.gpu_count == r.gpus);
    CHECK(t.gpu == FindGpuModel(r.gpu));
    CHECK(t.price_per_hour == r.price);
    CHECK_FALSE(t.spot_price_per_hour.has_value());
  }
}

}  // namespace migsim
