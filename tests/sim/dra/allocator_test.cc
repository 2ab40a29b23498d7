#include "sim/dra/allocator.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/cluster/mig_config.h"
#include "tests/support/catalog_model.h"

namespace migsim::dra {
namespace {

using test::Model;

DeviceSubRequest Sub(const std::string& device_class, const std::vector<std::string>& selectors,
                     int32_t count = 1) {
  DeviceSubRequest sub{.name = "r", .device_class = device_class, .selectors = {}, .count = count};
  for (const std::string& text : selectors) {
    Result<Selector> selector = Selector::Parse(text);
    REQUIRE(selector.ok());
    sub.selectors.push_back(std::move(selector).value());
  }
  return sub;
}

std::string Is(const std::string& attribute, const std::string& value) {
  return "device.attributes[\"gpu.nvidia.com\"]." + attribute + " == " + value;
}

ResourceClaim Claim(std::vector<DeviceSubRequest> alternatives) {
  DeviceRequest request{
      .name = "gpu", .alternatives = std::move(alternatives), .first_available = false};
  request.first_available = request.alternatives.size() > 1;
  return ResourceClaim{.name = "claim", .requests = {std::move(request)}};
}

ResourceClaim Mig(const std::string& profile, int start = -1) {
  std::vector<std::string> selectors = {Is("profile", "\"" + profile + "\"")};
  if (start >= 0) selectors.push_back(Is("placementStart", std::to_string(start)));
  return Claim({Sub("mig.nvidia.com", selectors)});
}

struct Node {
  explicit Node(const char* model_name, int gpus = 1, bool dynamic = true,
                const char* config = "all-disabled")
      : model(Model(model_name)),
        allocator(model, BuildResourceSlice(model, Settings(model, gpus, config), dynamic)) {}

  static std::vector<GpuMigSetting> Settings(const GpuModel& model, int gpus, const char* config) {
    Result<GpuMigSetting> setting = ResolveMigConfig(model, config);
    REQUIRE(setting.ok());
    return std::vector<GpuMigSetting>(gpus, setting.value());
  }
  // Allocates and commits; the devices taken, or nullopt.
  std::optional<PodAllocation> Take(const ResourceClaim& claim) {
    std::optional<PodAllocation> found = allocator.Find({&claim, 1}, classes);
    if (found) allocator.Commit(*found);
    return found;
  }
  const Device& DeviceOf(const PodAllocation& a, size_t request = 0, size_t i = 0) const {
    return allocator.slice().devices[a.requests[request].devices[i]];
  }

  const GpuModel& model;
  std::vector<DeviceClass> classes = NvidiaDeviceClasses();
  Allocator allocator;
};

TEST_CASE("a dynamic-MIG A100-40GB publishes every profile at every allowed start", "[dra]") {
  Node node("A100-40GB");
  std::set<std::pair<int, int>> published;
  for (const Device& d : node.allocator.slice().devices) {
    if (d.mig) published.insert({d.mig->profile, d.mig->start});
  }
  std::set<std::pair<int, int>> table;
  for (size_t p = 0; p < node.model.profiles.size(); ++p) {
    for (int start : node.model.profiles[p].starts) table.insert({static_cast<int>(p), start});
  }
  CHECK(published == table);
  CHECK(node.allocator.slice().devices.front().name == "gpu-0");
  CHECK(node.allocator.slice().counters.size() == 10);  // 8 memory slices, compute, media

  SECTION("each is created where the claim asks, and nowhere the table forbids") {
    for (const auto& [profile, start] : table) {
      Node fresh("A100-40GB");
      const std::string& name = fresh.model.profiles[profile].name;
      std::optional<PodAllocation> a = fresh.Take(Mig(name, start));
      INFO(name << "@" << start);
      REQUIRE(a);
      CHECK(fresh.DeviceOf(*a).mig == MigPlacement{profile, start});
      CHECK(fresh.DeviceOf(*a).created_on_allocation);
      CHECK(fresh.allocator.Layout(0) == MigLayout{{profile, start}});
    }
    CHECK_FALSE(Node("A100-40GB").Take(Mig("3g.20gb", 2)));
    CHECK_FALSE(Node("A100-40GB").Take(Mig("4g.20gb", 4)));
  }
}

TEST_CASE("dynamic MIG follows NVIDIA's placement rules through the shared counters", "[dra]") {
  SECTION("a 4g.20gb cannot be created next to a 3g.20gb at 0; a 3g.20gb fits next to a 4g") {
    Node node("A100-40GB");
    REQUIRE(node.Take(Mig("3g.20gb")));
    CHECK(node.DeviceOf(*node.Take(Mig("1g.5gb"))).mig->start == 4);
    CHECK_FALSE(node.Take(Mig("4g.20gb")));
    Node other("A100-40GB");
    REQUIRE(other.Take(Mig("4g.20gb")));
    CHECK(other.DeviceOf(*other.Take(Mig("3g.20gb"))).mig->start == 4);
  }
  SECTION("seven 1g.5gb fill a GPU; the whole GPU is refused until all are released") {
    Node node("A100-40GB");
    std::vector<PodAllocation> taken;
    for (int i = 0; i < 7; ++i) taken.push_back(*node.Take(Mig("1g.5gb")));
    CHECK(node.allocator.Layout(0).size() == 7);
    CHECK_FALSE(node.Take(Mig("1g.5gb")));
    const ResourceClaim whole = Claim({Sub("gpu.nvidia.com", {})});
    CHECK_FALSE(node.Take(whole));
    for (const PodAllocation& a : taken) node.allocator.Release(a);
    CHECK(node.allocator.Layout(0).empty());
    REQUIRE(node.Take(whole));
    CHECK_FALSE(node.Take(Mig("1g.5gb")));  // a whole GPU consumes every counter
  }
  SECTION("at most one +me instance per GPU") {
    Node node("A100-40GB");
    REQUIRE(node.Take(Mig("1g.5gb+me")));
    CHECK_FALSE(node.Take(Mig("1g.5gb+me")));
  }
}

TEST_CASE("every maximal layout can be created instance by instance and leaves nothing free",
          "[dra]") {
  for (const char* name : {"A100-40GB", "H100-80GB", "A30"}) {
    const GpuModel& model = Model(name);
    for (const MigLayout& layout : EnumerateMaximalLayouts(model, false)) {
      Node node(name);
      for (const MigPlacement& gi : layout) {
        INFO(name << ": " << DescribeLayout(model, layout));
        REQUIRE(node.Take(Mig(model.profiles[gi.profile].name, gi.start)));
      }
      CHECK(node.allocator.Layout(0) == layout);
      for (uint32_t d = 0; d < node.allocator.slice().devices.size(); ++d) {
        const Device& device = node.allocator.slice().devices[d];
        if (device.mig && model.profiles[device.mig->profile].media_extensions) continue;
        CHECK_FALSE(node.allocator.Available(d));
      }
    }
  }
}

TEST_CASE("firstAvailable takes the first alternative that can be satisfied", "[dra]") {
  Node node("A100-40GB");
  auto profile = [](const char* p) { return Is("profile", std::string("\"") + p + "\""); };
  const ResourceClaim claim = Claim(
      {Sub("mig.nvidia.com", {profile("2g.10gb")}), Sub("mig.nvidia.com", {profile("1g.5gb")})});
  std::vector<std::string> got;
  for (int i = 0; i < 4; ++i) {
    std::optional<PodAllocation> a = node.Take(claim);
    REQUIRE(a);
    got.push_back(node.model.profiles[node.DeviceOf(*a).mig->profile].name + "/" +
                  std::to_string(a->requests[0].alternative));
  }
  // Three 2g.10gb use 6 of the 7 compute slices; then only a 1g.5gb fits (at 6).
  CHECK(got == std::vector<std::string>{"2g.10gb/0", "2g.10gb/0", "2g.10gb/0", "1g.5gb/1"});
  CHECK_FALSE(node.Take(claim));
}

TEST_CASE("static DRA publishes the pre-created MIG devices only", "[dra]") {
  Node node("A100-40GB", 2, false, "all-balanced");
  for (const Device& d : node.allocator.slice().devices) CHECK(d.mig);
  CHECK(node.allocator.slice().devices.size() == 8);  // 2 x (2 x 1g + 2g + 3g)
  CHECK(node.allocator.slice().counters.empty());
  CHECK_FALSE(node.Take(Claim({Sub("gpu.nvidia.com", {})})));
  CHECK_FALSE(node.Take(Mig("4g.20gb")));
  SECTION("later requests make the search revisit earlier choices") {
    // Three MIG devices of GPU 0, then its 3g.20gb: greedy order would give the 3g to the
    // first request; the allocator backtracks until both are satisfied.
    ResourceClaim claim = Claim({Sub("mig.nvidia.com", {Is("parentIndex", "0")}, 3)});
    claim.requests.push_back(
        {.name = "big",
         .alternatives = {
             Sub("mig.nvidia.com", {Is("parentIndex", "0"), Is("profile", "\"3g.20gb\"")})}});
    std::optional<PodAllocation> a = node.Take(claim);
    REQUIRE(a);
    CHECK(node.DeviceOf(*a, 1).attributes.at("profile") == AttributeValue(std::string("3g.20gb")));
    CHECK(node.allocator.Layout(0).size() == 4);  // static devices stay published
  }
  SECTION("All takes every matching device, and fails when one is taken") {
    DeviceSubRequest all = Sub("mig.nvidia.com", {Is("parentIndex", "1")});
    all.mode = AllocationMode::kAll;
    REQUIRE(node.Take(Mig("1g.5gb")));  // on GPU 0
    std::optional<PodAllocation> a = node.Take(Claim({all}));
    REQUIRE(a);
    CHECK(a->requests[0].devices.size() == 4);
    CHECK_FALSE(node.Take(Claim({all})));
  }
  SECTION("a class that does not exist matches nothing") {
    CHECK_FALSE(node.Take(Claim({Sub("example.com", {})})));
  }
}

TEST_CASE("devices carry the attributes and capacities selectors use", "[dra]") {
  Node node("A100-40GB");
  const Device& whole = node.allocator.slice().devices[0];
  CHECK(whole.attributes.at("architecture") == AttributeValue(std::string("Ampere")));
  CHECK(whole.capacity.at("memory").value == 40960LL << 20);
  std::optional<PodAllocation> a = node.Take(Claim(
      {Sub("mig.nvidia.com",
           {"device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"10Gi\")) >= 0"})}));
  REQUIRE(a);
  CHECK(node.DeviceOf(*a).name == "gpu-0-mig-3g.20gb-0");  // 1g.10gb/2g.10gb are 9.75 GiB
}

}  // namespace
}  // namespace migsim::dra
