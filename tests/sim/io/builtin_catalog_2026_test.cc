// The models and node types added to the built-in catalog in 2026 (catalog/gpu_models/
// b200-180gb.json, l4.json, l40s.json; catalog/node_types/aws.json's g6, g6e and p6-b200,
// gcp.json, azure.json): their figures, and B200's layouts checked as A100's are.

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "sim/cluster/device_plugin.h"
#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_layout.h"
#include "sim/cluster/node_type.h"

namespace migsim {
namespace {

const GpuModel& Model(const char* name) {
  const GpuModel* model = FindGpuModel(name);
  REQUIRE(model != nullptr);
  return *model;
}

const NodeType& Type(const char* name) {
  const NodeType* type = FindNodeType(name);
  REQUIRE(type != nullptr);
  return *type;
}

}  // namespace

TEST_CASE("B200 has the seven MIG profiles of NVIDIA's table, found by its GFD label",
          "[io][catalog]") {
  const GpuModel& b200 = Model("NVIDIA-B200");
  CHECK(b200.name == "B200-180GB");
  CHECK(&Model("B200") == &b200);
  CHECK(b200.memory_mib == 183359);
  CHECK(b200.sms == 148);
  CHECK(b200.max_watts == 1000);
  CHECK(b200.memory_slices == 8);
  CHECK(b200.compute_slices == 7);
  REQUIRE(b200.profiles.size() == 7);
  const MigProfile& small = b200.profiles[b200.FindProfile("1g.23gb")];
  CHECK(small.profile_id == 19);
  CHECK(small.max_count == 7);
  CHECK(small.ResourceSuffix() == "1g.23gb");
  CHECK(b200.profiles[b200.FindProfile("1g.23gb+me")].media_extensions);
  CHECK(b200.profiles[b200.FindProfile("1g.23gb+me")].ResourceSuffix() == "1g.23gb.me");
  CHECK(b200.profiles[b200.FindProfile("3g.90gb")].max_count == 2);
  CHECK(b200.profiles[b200.FindProfile("4g.90gb")].memory_slices == 4);
  CHECK(b200.profiles[b200.FindProfile("7g.180gb")].sms == 148);
}

TEST_CASE("B200's layouts are the 19 classic and 78 maximal ones of the 8-slot table",
          "[io][catalog]") {
  const GpuModel& b200 = Model("B200-180GB");
  CHECK(EnumerateMaximalLayouts(b200, true).size() == 19);
  CHECK(EnumerateMaximalLayouts(b200, false).size() == 78);
  // mig-parted's all-balanced for B200: 2 x 1g.23gb + 1 x 2g.45gb + 1 x 3g.90gb.
  const ProfileCount balanced[] = {{b200.FindProfile("1g.23gb"), 2},
                                   {b200.FindProfile("2g.45gb"), 1},
                                   {b200.FindProfile("3g.90gb"), 1}};
  Result<MigLayout> placed = PlaceProfiles(b200, balanced);
  REQUIRE(placed.ok());
  CHECK(DescribeLayout(b200, placed.value()) == "2g.45gb@0 + 1g.23gb@2 + 1g.23gb@3 + 3g.90gb@4");
  const ProfileCount too_many[] = {{b200.FindProfile("3g.90gb"), 3}};
  CHECK_FALSE(PlaceProfiles(b200, too_many).ok());
}

TEST_CASE("every built-in MIG model has the maximal layouts of its placement table",
          "[io][catalog]") {
  // The 8-slot table (A100, H100, H200, B200) gives 19 classic and 78 maximal layouts; the
  // A30's 4-slot table 5 and 5 (mig_layout.h). A model added without its own count fails.
  for (const GpuModel& model : AllGpuModels()) {
    if (!model.mig_capable()) continue;
    INFO(model.name);
    const size_t classic = model.memory_slices == 8 ? 19 : 5;
    const size_t all = model.memory_slices == 8 ? 78 : 5;
    REQUIRE((model.memory_slices == 8 || model.name == "A30-24GB"));
    CHECK(EnumerateMaximalLayouts(model, true).size() == classic);
    CHECK(EnumerateMaximalLayouts(model, false).size() == all);
  }
}

TEST_CASE("L4 and L40S are whole GPUs with the memory the driver reports", "[io][catalog]") {
  const GpuModel& l4 = Model("NVIDIA-L4");
  CHECK(l4.name == "L4");
  CHECK_FALSE(l4.mig_capable());
  CHECK(l4.memory_mib == 23034);
  CHECK(l4.max_watts == 72);
  const GpuModel& l40s = Model("NVIDIA-L40S");
  CHECK(l40s.name == "L40S");
  CHECK_FALSE(l40s.mig_capable());
  CHECK(l40s.memory_mib == 46068);
  CHECK(l40s.sms == 142);
}

TEST_CASE("the AWS, Google Cloud and Azure GPU node types carry their prices and places",
          "[io][catalog]") {
  CHECK(Type("p6-b200.48xlarge").gpu->name == "B200-180GB");
  CHECK(Type("p6-b200.48xlarge").gpu_count == 8);
  CHECK(Type("p6-b200.48xlarge").price_per_hour == Approx(113.9328));
  CHECK(Type("g6.12xlarge").gpu->name == "L4");
  CHECK(Type("g6.12xlarge").gpu_count == 4);
  CHECK(Type("g6e.48xlarge").gpu->name == "L40S");
  CHECK(Type("g6e.48xlarge").price_per_hour == Approx(30.13118));
  CHECK(Type("a2-highgpu-8g").cloud == "gcp");
  CHECK(Type("a2-highgpu-8g").region == "us-central1");
  CHECK(*Type("a2-highgpu-8g").spot_price_per_hour == Approx(15.42416));
  CHECK(Type("a2-megagpu-16g").gpu_count == 16);
  CHECK(Type("a3-highgpu-8g").gpu->name == "H100-SXM5-80GB");
  CHECK(Type("a3-megagpu-8g").region == "us-east4");
  CHECK(Type("g2-standard-96").gpu->name == "L4");
  CHECK(Type("Standard_ND96asr_v4").gpu->name == "A100-SXM4-40GB");
  CHECK(Type("Standard_ND96amsr_A100_v4").gpu->name == "A100-SXM4-80GB");
  CHECK(Type("Standard_ND96isr_H100_v5").price_per_hour == Approx(98.32));
  CHECK(Type("Standard_ND96isr_H100_v5").cloud == "azure");
  std::set<std::string> clouds;
  for (const NodeType& type : AllNodeTypes()) {
    clouds.insert(type.cloud);
    if (type.spot_price_per_hour) CHECK(*type.spot_price_per_hour < type.price_per_hour);
  }
  CHECK(clouds == std::set<std::string>{"aws", "azure", "gcp"});
}

}  // namespace migsim
