#include "sim/cluster/gpu_model.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>
#include "tests/support/catalog_model.h"

namespace migsim {
namespace {

using test::Model;

const MigProfile& Profile(const GpuModel& model, const char* name) {
  int index = model.FindProfile(name);
  REQUIRE(index >= 0);
  return model.profiles[index];
}

TEST_CASE("a model is found by catalog name, short alias or GFD product label",
          "[cluster][gpu_model]") {
  const GpuModel* a100 = FindGpuModel("A100-SXM4-40GB");
  REQUIRE(a100 != nullptr);
  CHECK(FindGpuModel("A100-40GB") == a100);
  CHECK(FindGpuModel("NVIDIA-A100-SXM4-40GB") == a100);
  CHECK(FindGpuModel("A100-80GB")->name == "A100-SXM4-80GB");
  CHECK(FindGpuModel("H100-80GB")->name == "H100-SXM5-80GB");
  CHECK(FindGpuModel("H200-141GB")->name == "H200-SXM5-141GB");
  CHECK(FindGpuModel("A30")->name == "A30-24GB");
  CHECK(FindGpuModel("B200")->name == "B200-180GB");
  CHECK(FindGpuModel("NVIDIA-L4")->name == "L4");
  CHECK(FindGpuModel("GB300") == nullptr);
  CHECK(FindGpuModel("") == nullptr);
}

TEST_CASE("every model of the catalog is found by its own name and label", "[cluster][gpu_model]") {
  for (const GpuModel& model : AllGpuModels()) {
    CAPTURE(model.name);
    CHECK(FindGpuModel(model.name) == &model);
    CHECK(FindGpuModel(model.product_label) == &model);
  }
}

TEST_CASE("every model of the catalog draws less power idle than at its cap, both cited",
          "[cluster][gpu_model]") {
  for (const GpuModel& m : AllGpuModels()) {
    INFO(m.name);
    CHECK(m.idle_watts > 0);
    CHECK(m.max_watts > m.idle_watts);
    // Idle readings are a small part of the cap: 3 % (A10G) to 20 % (L4) in the sources.
    CHECK(m.idle_watts <= 0.21 * m.max_watts);
  }
  CHECK(Model("H100-80GB").max_watts == 700);
  CHECK(Model("T4").idle_watts == 9);
}

TEST_CASE("the A100-40GB profiles are the rows of nvidia-smi mig -lgip", "[cluster][gpu_model]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  CHECK(a100.memory_mib == 40960);
  CHECK(a100.sms == 108);
  CHECK(a100.memory_slices == 8);
  CHECK(a100.compute_slices == 7);
  struct Row {
    const char* name;
    int id, g, mem, sms, max;
    double gib;
    std::vector<int> starts;
    bool me, classic;
  };
  const std::vector<Row> rows = {
      {"1g.5gb", 19, 1, 1, 14, 7, 4.75, {0, 1, 2, 3, 4, 5, 6}, false, true},
      {"1g.5gb+me", 20, 1, 1, 14, 1, 4.75, {0, 1, 2, 3, 4, 5, 6}, true, false},
      {"1g.10gb", 15, 1, 2, 14, 4, 9.75, {0, 2, 4, 6}, false, false},
      {"2g.10gb", 14, 2, 2, 28, 3, 9.75, {0, 2, 4}, false, true},
      {"3g.20gb", 9, 3, 4, 42, 2, 19.62, {0, 4}, false, true},
      {"4g.20gb", 5, 4, 4, 56, 1, 19.62, {0}, false, true},
      {"7g.40gb", 0, 7, 8, 98, 1, 39.38, {0}, false, true},
  };
  REQUIRE(a100.profiles.size() == rows.size());
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const MigProfile& p = Profile(a100, row.name);
    CHECK(p.profile_id == row.id);
    CHECK(p.compute_slices == row.g);
    CHECK(p.memory_slices == row.mem);
    CHECK(p.sms == row.sms);
    CHECK(p.max_count == row.max);
    CHECK(p.memory_gib == Approx(row.gib));
    CHECK(p.starts == row.starts);
    CHECK(p.media_extensions == row.me);
    CHECK(p.classic == row.classic);
  }
}

TEST_CASE("every 8-slot model shares the A100 placement table", "[cluster][gpu_model]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  for (const char* name : {"A100-SXM4-80GB", "H100-SXM5-80GB", "H200-SXM5-141GB"}) {
    const GpuModel& model = Model(name);
    CAPTURE(name);
    REQUIRE(model.profiles.size() == a100.profiles.size());
    CHECK(model.memory_slices == 8);
    CHECK(model.compute_slices == 7);
    for (size_t i = 0; i < model.profiles.size(); ++i) {
      CHECK(model.profiles[i].profile_id == a100.profiles[i].profile_id);
      CHECK(model.profiles[i].starts == a100.profiles[i].starts);
      CHECK(model.profiles[i].max_count == a100.profiles[i].max_count);
      CHECK(model.profiles[i].classic == a100.profiles[i].classic);
    }
  }
}

TEST_CASE("the A100-80GB names scale with memory and allow seven 1g.10gb", "[cluster][gpu_model]") {
  const GpuModel& a100 = Model("A100-80GB");
  CHECK(a100.memory_mib == 81920);
  CHECK(Profile(a100, "1g.10gb").max_count == 7);
  CHECK(Profile(a100, "1g.10gb").memory_gib == Approx(9.50));
  CHECK(Profile(a100, "1g.20gb").memory_slices == 2);
  CHECK(Profile(a100, "7g.80gb").sms == 98);
  CHECK(a100.FindProfile("1g.5gb") == -1);
}

TEST_CASE("the H100 SXM5 uses SXM5 SM counts, with 26 SMs on the double-memory 1g",
          "[cluster][gpu_model]") {
  const GpuModel& h100 = Model("H100-SXM5-80GB");
  CHECK(h100.sms == 132);
  CHECK(h100.memory_mib == 81920);
  CHECK(Profile(h100, "1g.10gb").sms == 16);
  CHECK(Profile(h100, "1g.20gb").sms == 26);
  CHECK(Profile(h100, "3g.40gb").sms == 60);
  CHECK(Profile(h100, "7g.80gb").sms == 132);
  CHECK(Profile(h100, "7g.80gb").memory_gib == Approx(79.25));
}

TEST_CASE("the H200 has 141 GB profiles and 144384 MiB", "[cluster][gpu_model]") {
  const GpuModel& h200 = Model("H200-141GB");
  CHECK(h200.memory_mib == 144384);
  CHECK(Profile(h200, "1g.18gb").profile_id == 19);
  CHECK(Profile(h200, "1g.18gb+me").media_extensions);
  CHECK(Profile(h200, "1g.35gb").profile_id == 15);
  CHECK(Profile(h200, "3g.71gb").memory_gib == Approx(69.50));
  CHECK(Profile(h200, "7g.141gb").memory_gib == Approx(139.75));
}

TEST_CASE("the A30 is a 4-slot GPU whose classic set is 1g.6gb, 2g.12gb and 4g.24gb",
          "[cluster][gpu_model]") {
  const GpuModel& a30 = Model("A30");
  CHECK(a30.memory_slices == 4);
  CHECK(a30.compute_slices == 4);
  CHECK(a30.sms == 56);
  CHECK(a30.memory_mib == 24576);
  std::vector<std::string> classic;
  for (const MigProfile& p : a30.profiles) {
    if (p.classic) classic.push_back(p.name);
  }
  CHECK(classic == std::vector<std::string>{"1g.6gb", "2g.12gb", "4g.24gb"});
  CHECK(Profile(a30, "1g.6gb").profile_id == 14);
  CHECK(Profile(a30, "1g.6gb+me").profile_id == 21);
  CHECK(Profile(a30, "2g.12gb+me").profile_id == 6);
  CHECK(Profile(a30, "2g.12gb").starts == std::vector<int>{0, 2});
  CHECK(Profile(a30, "1g.6gb").max_count == 4);
}

TEST_CASE("V100, A10G and T4 do not support MIG", "[cluster][gpu_model]") {
  for (const char* name : {"V100-SXM2-16GB", "V100-SXM2-32GB", "A10G", "T4"}) {
    const GpuModel& model = Model(name);
    CAPTURE(name);
    CHECK_FALSE(model.mig_capable());
    CHECK(model.memory_slices == 0);
    CHECK(model.compute_slices == 0);
  }
  CHECK(Model("V100-SXM2-16GB").memory_mib == 16384);
  CHECK(Model("V100-SXM2-16GB").sms == 80);
  CHECK(Model("V100-SXM2-32GB").memory_mib == 32768);
  CHECK(Model("A10G").memory_mib == 22888);
  CHECK(Model("A10G").sms == 80);
  CHECK(Model("T4").sms == 40);
}

TEST_CASE("a profile's resource suffix replaces '+' by '.'", "[cluster][gpu_model]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  CHECK(Profile(a100, "1g.5gb+me").ResourceSuffix() == "1g.5gb.me");
  CHECK(Profile(a100, "3g.20gb").ResourceSuffix() == "3g.20gb");
}

TEST_CASE("only the plain 1g/2g/3g/4g/7g profiles of 8-slot GPUs are classic",
          "[cluster][gpu_model]") {
  for (const GpuModel& model : AllGpuModels()) {
    if (model.memory_slices != 8) continue;
    CAPTURE(model.name);
    int classic = 0;
    for (const MigProfile& p : model.profiles) {
      if (!p.classic) continue;
      ++classic;
      CHECK_FALSE(p.media_extensions);
      CHECK((p.compute_slices > 1 || p.memory_slices == 1));
    }
    CHECK(classic == 5);
  }
}

}  // namespace
}  // namespace migsim
