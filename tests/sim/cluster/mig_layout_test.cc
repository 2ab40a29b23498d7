#include "sim/cluster/mig_layout.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>
#include "tests/support/catalog_model.h"

namespace migsim {
namespace {

using test::Model;

// "3g" names the classic profile with g = 3; anything else is a full profile name.
int ProfileIndex(const GpuModel& model, std::string_view name) {
  if (name.size() == 2 && name[1] == 'g') {
    for (size_t p = 0; p < model.profiles.size(); ++p) {
      if (model.profiles[p].classic && model.profiles[p].compute_slices == name[0] - '0') {
        return static_cast<int>(p);
      }
    }
  }
  int index = model.FindProfile(name);
  REQUIRE(index >= 0);
  return index;
}

// Parses domain.md's notation, e.g. "4g@0 + 1g@4 + 1g.10gb@6".
MigLayout Layout(const GpuModel& model, std::string_view text) {
  MigLayout layout;
  while (!text.empty()) {
    size_t end = text.find(" + ");
    std::string_view item = text.substr(0, end);
    size_t at = item.find('@');
    layout.push_back(
        {ProfileIndex(model, item.substr(0, at)), std::stoi(std::string(item.substr(at + 1)))});
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 3);
  }
  return layout;
}

std::set<MigLayout> Layouts(const GpuModel& model, const std::vector<const char*>& texts) {
  std::set<MigLayout> layouts;
  for (const char* text : texts) layouts.insert(Layout(model, text));
  return layouts;
}

// domain.md §1.4, rows 1 to 19.
const std::vector<const char*> kClassicEightSlot = {
    "7g@0",
    "4g@0 + 3g@4",
    "4g@0 + 2g@4 + 1g@6",
    "4g@0 + 1g@4 + 1g@5 + 1g@6",
    "3g@0 + 3g@4",
    "3g@0 + 2g@4 + 1g@6",
    "3g@0 + 1g@4 + 1g@5 + 1g@6",
    "2g@0 + 2g@2 + 3g@4",
    "2g@0 + 2g@2 + 2g@4 + 1g@6",
    "2g@0 + 2g@2 + 1g@4 + 1g@5 + 1g@6",
    "2g@0 + 1g@2 + 1g@3 + 3g@4",
    "2g@0 + 1g@2 + 1g@3 + 2g@4 + 1g@6",
    "2g@0 + 1g@2 + 1g@3 + 1g@4 + 1g@5 + 1g@6",
    "1g@0 + 1g@1 + 2g@2 + 3g@4",
    "1g@0 + 1g@1 + 2g@2 + 2g@4 + 1g@6",
    "1g@0 + 1g@1 + 2g@2 + 1g@4 + 1g@5 + 1g@6",
    "1g@0 + 1g@1 + 1g@2 + 1g@3 + 3g@4",
    "1g@0 + 1g@1 + 1g@2 + 1g@3 + 2g@4 + 1g@6",
    "1g@0 + 1g@1 + 1g@2 + 1g@3 + 1g@4 + 1g@5 + 1g@6",
};

std::set<std::multiset<int>> Multisets(const std::vector<MigLayout>& layouts) {
  std::set<std::multiset<int>> out;
  for (const MigLayout& layout : layouts) {
    std::multiset<int> profiles;
    for (const MigPlacement& p : layout) profiles.insert(p.profile);
    out.insert(profiles);
  }
  return out;
}

TEST_CASE("exactly the 19 maximal classic layouts of an 8-slot GPU are valid",
          "[cluster][mig_layout]") {
  for (const char* name :
       {"A100-SXM4-40GB", "A100-SXM4-80GB", "H100-SXM5-80GB", "H200-SXM5-141GB"}) {
    const GpuModel& model = Model(name);
    CAPTURE(name);
    std::vector<MigLayout> layouts = EnumerateMaximalLayouts(model, /*classic_only=*/true);
    CHECK(layouts.size() == 19);
    CHECK(std::set<MigLayout>(layouts.begin(), layouts.end()) == Layouts(model, kClassicEightSlot));
    CHECK(Multisets(layouts).size() == 14);
  }
}

TEST_CASE("the enumeration lists bigger GIs first, like the doc's table", "[cluster][mig_layout]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  std::vector<MigLayout> layouts = EnumerateMaximalLayouts(a100, true);
  REQUIRE(layouts.size() == kClassicEightSlot.size());
  for (size_t i = 0; i < layouts.size(); ++i) {
    CHECK(layouts[i] == Layout(a100, kClassicEightSlot[i]));
  }
}

TEST_CASE("allowing the double-memory 1g gives 78 maximal layouts in 38 multisets",
          "[cluster][mig_layout]") {
  for (const GpuModel& model : AllGpuModels()) {
    if (model.memory_slices != 8) continue;
    CAPTURE(model.name);
    std::vector<MigLayout> layouts = EnumerateMaximalLayouts(model, /*classic_only=*/false);
    CHECK(layouts.size() == 78);
    CHECK(Multisets(layouts).size() == 38);
  }
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  std::vector<MigLayout> layouts = EnumerateMaximalLayouts(a100, false);
  CHECK(std::count(layouts.begin(), layouts.end(),
                   Layout(a100, "1g.10gb@0 + 1g.10gb@2 + 1g.10gb@4 + 1g.10gb@6")) == 1);
  for (const char* classic : kClassicEightSlot) {  // slot 6 is always taken in these
    CHECK(std::count(layouts.begin(), layouts.end(), Layout(a100, classic)) == 1);
  }
  CHECK(std::count(layouts.begin(), layouts.end(), Layout(a100, "4g@0 + 2g@4 + 1g.10gb@6")) == 1);
}

TEST_CASE("an A30 has the 5 full layouts of domain.md §1.3", "[cluster][mig_layout]") {
  const GpuModel& a30 = Model("A30-24GB");
  const std::set<MigLayout> expected =
      Layouts(a30, {"4g@0", "2g@0 + 2g@2", "2g@0 + 1g@2 + 1g@3", "1g@0 + 1g@1 + 2g@2",
                    "1g@0 + 1g@1 + 1g@2 + 1g@3"});
  for (bool classic_only : {true, false}) {
    std::vector<MigLayout> layouts = EnumerateMaximalLayouts(a30, classic_only);
    CHECK(std::set<MigLayout>(layouts.begin(), layouts.end()) == expected);
    CHECK(layouts.size() == 5);
    CHECK(Multisets(layouts).size() == 4);
  }
}

TEST_CASE("every enumerated layout is valid, maximal and sorted by start",
          "[cluster][mig_layout]") {
  for (const GpuModel& model : AllGpuModels()) {
    for (bool classic_only : {true, false}) {
      for (const MigLayout& layout : EnumerateMaximalLayouts(model, classic_only)) {
        CAPTURE(model.name, DescribeLayout(model, layout));
        CHECK(ValidateLayout(model, layout).ok());
        CHECK(IsMaximal(model, layout, classic_only));
        CHECK(std::is_sorted(
            layout.begin(), layout.end(),
            [](const MigPlacement& a, const MigPlacement& b) { return a.start < b.start; }));
      }
    }
  }
}

TEST_CASE("a GPU without MIG has no layouts", "[cluster][mig_layout]") {
  CHECK(EnumerateMaximalLayouts(Model("T4"), true).empty());
  CHECK(ValidateLayout(Model("T4"), {}).ok());
}

std::string Rejection(const GpuModel& model, const MigLayout& layout) {
  Status status = ValidateLayout(model, layout);
  CHECK(status.code() == StatusCode::kInvalidArgument);
  return status.message();
}

TEST_CASE("invalid layouts are rejected with the broken rule", "[cluster][mig_layout]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  SECTION("a 3g at memory slice 2 is not an allowed placement") {
    CHECK(Rejection(a100, Layout(a100, "3g@2")) ==
          "3g.20gb at memory slice 2 is not an allowed placement (allowed: 0, 4)");
  }
  SECTION("a 1g cannot use memory slice 7") {
    CHECK(Rejection(a100, Layout(a100, "1g@7")) ==
          "1g.5gb at memory slice 7 is not an allowed placement (allowed: 0, 1, 2, 3, 4, 5, 6)");
  }
  SECTION("two GIs may not share a memory slice") {
    CHECK(Rejection(a100, Layout(a100, "3g@0 + 2g@2")) == "2g.10gb at 2 overlaps 3g.20gb at 0");
    CHECK(Rejection(a100, Layout(a100, "4g@0 + 4g@0")) == "4g.20gb at 0 overlaps 4g.20gb at 0");
    CHECK(Rejection(a100, Layout(a100, "1g.10gb@6 + 1g@6")) == "1g.5gb at 6 overlaps 1g.10gb at 6");
  }
  SECTION("a profile may not exceed its per-GPU maximum") {
    CHECK(Rejection(a100, Layout(a100, "1g.5gb+me@0 + 1g.5gb+me@1")) ==
          "2 GIs of 1g.5gb+me exceed its maximum of 1 per GPU");
  }
  SECTION("at most one +me GI per GPU, even of different profiles") {
    const GpuModel& a30 = Model("A30");
    CHECK(Rejection(a30, Layout(a30, "1g.6gb+me@0 + 2g.12gb+me@2")) ==
          "at most one +me GI is allowed per GPU, but 1g.6gb+me at 0 and 2g.12gb+me at 2 both "
          "are");
  }
  SECTION("the profile index must name a profile of the model") {
    CHECK(Rejection(a100, {{7, 0}}) == "profile index 7 is not a MIG profile of A100-SXM4-40GB");
    CHECK(Rejection(a100, {{-1, 0}}) == "profile index -1 is not a MIG profile of A100-SXM4-40GB");
  }
  SECTION("a GPU without MIG takes no GIs") {
    CHECK(Rejection(Model("V100-SXM2-16GB"), {{0, 0}}) == "V100-SXM2-16GB does not support MIG");
  }
}

// The real placement tables make this rule redundant with the overlap rule, so a made-up
// model whose 2g fits anywhere shows that it is still checked.
TEST_CASE("GIs may not use more compute slices than the GPU has", "[cluster][mig_layout]") {
  GpuModel model = Model("A30");
  model.name = "TEST-GPU";
  model.compute_slices = 3;
  CHECK(Rejection(model, Layout(model, "2g@0 + 2g@2")) ==
        "the GIs use 4 compute slices, more than the 3 of TEST-GPU");
}

TEST_CASE("valid layouts pass validation", "[cluster][mig_layout]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  CHECK(ValidateLayout(a100, {}).ok());
  CHECK(ValidateLayout(a100, Layout(a100, "3g@4")).ok());
  CHECK(ValidateLayout(a100, Layout(a100, "1g.5gb+me@3 + 1g@0 + 3g@4")).ok());
  CHECK(ValidateLayout(a100, Layout(a100, "1g.10gb@0 + 1g.10gb@2 + 1g.10gb@4 + 1g.10gb@6")).ok());
}

TEST_CASE("a layout is maximal when no further GI fits", "[cluster][mig_layout]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  CHECK_FALSE(IsMaximal(a100, {}, true));
  CHECK_FALSE(IsMaximal(a100, Layout(a100, "3g@0"), true));
  CHECK_FALSE(IsMaximal(a100, Layout(a100, "4g@0 + 2g@4"), true));
  CHECK(IsMaximal(a100, Layout(a100, "4g@0 + 2g@4 + 1g@6"), true));
  SECTION("slice 7 is only usable by the double-memory 1g") {
    CHECK(IsMaximal(a100, Layout(a100, "4g@0 + 1g@4 + 1g@5 + 1g@6"), false));
    CHECK_FALSE(IsMaximal(a100, Layout(a100, "4g@0 + 1g@4 + 1g@5"), false));
    CHECK(IsMaximal(a100, Layout(a100, "4g@0 + 1g@4 + 1g@5"), true) == false);
  }
  SECTION("a +me GI counts like its base profile") {
    CHECK(IsMaximal(a100, Layout(a100, "1g.5gb+me@0 + 1g@1 + 2g@2 + 3g@4"), true));
  }
}

std::vector<ProfileCount> Counts(const GpuModel& model,
                                 const std::vector<std::pair<const char*, int>>& counts) {
  std::vector<ProfileCount> out;
  for (const auto& [name, count] : counts) out.push_back({ProfileIndex(model, name), count});
  return out;
}

TEST_CASE("PlaceProfiles finds placements larger GIs first, lowest start first",
          "[cluster][mig_layout]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  SECTION("all-balanced needs the 3g on the right half") {
    Result<MigLayout> layout = PlaceProfiles(a100, Counts(a100, {{"1g", 2}, {"2g", 1}, {"3g", 1}}));
    REQUIRE(layout.ok());
    CHECK(layout.value() == Layout(a100, "2g@0 + 1g@2 + 1g@3 + 3g@4"));
  }
  SECTION("seven 1g.5gb take slices 0 to 6") {
    Result<MigLayout> layout = PlaceProfiles(a100, Counts(a100, {{"1g", 7}}));
    REQUIRE(layout.ok());
    CHECK(layout.value() == Layout(a100, "1g@0 + 1g@1 + 1g@2 + 1g@3 + 1g@4 + 1g@5 + 1g@6"));
  }
  SECTION("two 3g take both halves; a 4g takes the left one") {
    CHECK(PlaceProfiles(a100, Counts(a100, {{"3g", 2}})).value() == Layout(a100, "3g@0 + 3g@4"));
    CHECK(PlaceProfiles(a100, Counts(a100, {{"1g", 1}, {"3g", 1}, {"4g", 0}})).value() ==
          Layout(a100, "3g@0 + 1g@4"));
    CHECK(PlaceProfiles(a100, Counts(a100, {{"3g", 1}, {"4g", 1}})).value() ==
          Layout(a100, "4g@0 + 3g@4"));
  }
  SECTION("repeated entries of one profile add up") {
    CHECK(PlaceProfiles(a100, Counts(a100, {{"2g", 1}, {"2g", 2}})).value() ==
          Layout(a100, "2g@0 + 2g@2 + 2g@4"));
  }
  SECTION("no GIs is an empty layout") { CHECK(PlaceProfiles(a100, {}).value().empty()); }
}

std::string PlaceError(const GpuModel& model, const std::vector<ProfileCount>& counts) {
  Result<MigLayout> layout = PlaceProfiles(model, counts);
  REQUIRE_FALSE(layout.ok());
  CHECK(layout.status().code() == StatusCode::kInvalidArgument);
  return layout.status().message();
}

TEST_CASE("PlaceProfiles explains why a request cannot be placed", "[cluster][mig_layout]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  CHECK(PlaceError(a100, Counts(a100, {{"4g", 2}})) ==
        "2 x 4g.20gb exceeds its maximum of 1 per GPU");
  CHECK(PlaceError(a100, Counts(a100, {{"4g", 1}, {"2g", 2}})) ==
        "the GIs need 8 compute slices, more than the 7 of A100-SXM4-40GB");
  CHECK(PlaceError(a100, Counts(a100, {{"3g", 2}, {"1g.10gb", 1}})) ==
        "the GIs need 10 memory slices, more than the 8 of A100-SXM4-40GB");
  CHECK(PlaceError(Model("A30"), Counts(Model("A30"), {{"1g.6gb+me", 1}, {"2g.12gb+me", 1}})) ==
        "2 +me GIs requested, but at most one is allowed per GPU");
  CHECK(PlaceError(a100, {{9, 1}}) == "profile index 9 is not a MIG profile of A100-SXM4-40GB");
  CHECK(PlaceError(a100, Counts(a100, {{"1g", -1}})) == "negative count -1 for 1g.5gb");
  CHECK(PlaceError(Model("T4"), {{0, 1}}) == "T4 does not support MIG");
}

// Made-up placement tables: two 2g GIs whose only starts overlap.
TEST_CASE("PlaceProfiles reports a request that fits by size but not by placement",
          "[cluster][mig_layout]") {
  GpuModel model = Model("A30");
  model.name = "TEST-GPU";
  model.profiles[2].starts = {1};  // 2g.12gb
  model.profiles[3].starts = {2};  // 2g.12gb+me
  CHECK(PlaceError(model, {{2, 1}, {3, 1}}) ==
        "no placement of 1 x 2g.12gb + 1 x 2g.12gb+me exists on TEST-GPU");
}

TEST_CASE("every maximal layout's multiset can be placed again", "[cluster][mig_layout]") {
  for (const GpuModel& model : AllGpuModels()) {
    for (const MigLayout& layout : EnumerateMaximalLayouts(model, false)) {
      std::vector<ProfileCount> counts;
      for (const MigPlacement& p : layout) counts.push_back({p.profile, 1});
      Result<MigLayout> placed = PlaceProfiles(model, counts);
      CAPTURE(model.name, DescribeLayout(model, layout));
      REQUIRE(placed.ok());
      CHECK(ValidateLayout(model, placed.value()).ok());
    }
  }
}

TEST_CASE("a layout is described as profile@start joined by +", "[cluster][mig_layout]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  CHECK(DescribeLayout(a100, Layout(a100, "1g@0 + 2g@2 + 3g@4")) ==
        "1g.5gb@0 + 2g.10gb@2 + 3g.20gb@4");
  CHECK(DescribeLayout(a100, {}) == "(empty)");
  CHECK(DescribeLayout(a100, MigLayout{{12, 3}}) == "#12@3");
}

}  // namespace
}  // namespace migsim
