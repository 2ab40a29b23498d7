#include "sim/cluster/node_type.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

namespace migsim {
namespace {

const NodeType& Type(const char* name) {
  const NodeType* type = FindNodeType(name);
  REQUIRE(type != nullptr);
  return *type;
}

TEST_CASE("a p4d.24xlarge has 8 A100-40GB, 96 vCPU, 1152 GiB at the 2026 price",
          "[cluster][node_type]") {
  const NodeType& p4d = Type("p4d.24xlarge");
  CHECK(p4d.vcpu == 96);
  CHECK(p4d.memory_gib == 1152);
  CHECK(p4d.gpu_count == 8);
  REQUIRE(p4d.gpu != nullptr);
  CHECK(p4d.gpu->name == "A100-SXM4-40GB");
  CHECK(p4d.price_per_hour == Approx(21.9576));
}

TEST_CASE("P5-class nodes carry H100 or H200 GPUs", "[cluster][node_type]") {
  CHECK(Type("p5.48xlarge").gpu->name == "H100-SXM5-80GB");
  CHECK(Type("p5.48xlarge").price_per_hour == Approx(55.04));
  CHECK(Type("p5.48xlarge").vcpu == 192);
  CHECK(Type("p5.48xlarge").memory_gib == 2048);
  CHECK(Type("p4de.24xlarge").gpu->name == "A100-SXM4-80GB");
  CHECK(Type("p4de.24xlarge").price_per_hour == Approx(27.4471));
  CHECK(Type("p5e.48xlarge").gpu->name == "H200-SXM5-141GB");
  CHECK(Type("p5e.48xlarge").price_per_hour == Approx(43.26));  // Capacity Block rate
  CHECK(Type("p5en.48xlarge").gpu->name == "H200-SXM5-141GB");
  CHECK(Type("p5en.48xlarge").price_per_hour == Approx(63.296));
}

TEST_CASE("P3, G5 and G4dn nodes carry V100, A10G and T4 GPUs", "[cluster][node_type]") {
  CHECK(Type("p3.2xlarge").gpu_count == 1);
  CHECK(Type("p3.8xlarge").gpu_count == 4);
  CHECK(Type("p3.8xlarge").gpu->name == "V100-SXM2-16GB");
  CHECK(Type("p3.8xlarge").price_per_hour == Approx(12.24));
  CHECK(Type("p3.16xlarge").gpu_count == 8);
  CHECK(Type("p3dn.24xlarge").gpu->name == "V100-SXM2-32GB");
  CHECK(Type("p3dn.24xlarge").memory_gib == 768);
  CHECK(Type("g5.xlarge").gpu->name == "A10G");
  CHECK(Type("g5.12xlarge").gpu_count == 4);
  CHECK(Type("g5.48xlarge").gpu_count == 8);
  CHECK(Type("g5.48xlarge").price_per_hour == Approx(16.288));
  CHECK(Type("g4dn.xlarge").gpu->name == "T4");
  CHECK(Type("g4dn.xlarge").price_per_hour == Approx(0.526));
  CHECK(Type("g4dn.metal").gpu_count == 8);
  CHECK(Type("g4dn.metal").vcpu == 96);
}

TEST_CASE("only the AWS A100, H100, H200 and B200 node types support MIG", "[cluster][node_type]") {
  std::set<std::string> mig_capable;
  for (const NodeType& type : AllNodeTypes()) {
    if (type.cloud == "aws" && type.gpu != nullptr && type.gpu->mig_capable()) {
      mig_capable.insert(type.name);
    }
  }
  CHECK(mig_capable == std::set<std::string>{"p4d.24xlarge", "p4de.24xlarge", "p5.4xlarge",
                                             "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge",
                                             "p6-b200.48xlarge"});
}

TEST_CASE("every node type has a unique name, a GPU model and a price", "[cluster][node_type]") {
  std::set<std::string> names;
  for (const NodeType& type : AllNodeTypes()) {
    CAPTURE(type.name);
    CHECK(names.insert(type.name).second);
    CHECK(FindNodeType(type.name) == &type);
    CHECK(type.gpu_count > 0);
    CHECK(type.gpu != nullptr);
    CHECK(type.price_per_hour > 0);
    CHECK(type.vcpu > 0);
  }
  CHECK(names.size() >= 25);
  CHECK(FindNodeType("m5.large") == nullptr);
}

}  // namespace
}  // namespace migsim
