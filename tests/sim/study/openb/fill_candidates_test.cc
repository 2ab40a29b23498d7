// FillCandidates: the per-class lists of nodes that may still pass a request's filter give
// exactly the full scan's feasible nodes, in order, while resources only shrink.
#include "sim/study/openb/fill_candidates.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

namespace migsim {
namespace {

struct Node {
  int64_t cpu = 0;
  int64_t memory = 0;
  int model = 0;
};

struct Request {
  int64_t cpu = 0;
  int64_t memory = 0;
  int model = -1;  // -1: any model
};

bool Admits(const Node& n, const Request& r) { return r.model < 0 || r.model == n.model; }
bool Fits(const Node& n, const Request& r) { return n.cpu >= r.cpu && n.memory >= r.memory; }

TEST_CASE("the candidate lists give the full scan's feasible nodes in order while resources shrink",
          "[fill_candidates]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const size_t node_count = 1 + rng() % 60;
    std::vector<Node> nodes(node_count);
    for (Node& n : nodes) {
      n = {static_cast<int64_t>(rng() % 100), static_cast<int64_t>(rng() % 100),
           static_cast<int>(rng() % 3)};
    }
    std::vector<Request> requests(1 + rng() % 8);
    for (Request& r : requests) {
      r = {static_cast<int64_t>(rng() % 40), static_cast<int64_t>(rng() % 40),
           static_cast<int>(rng() % 4) - 1};
    }
    FillCandidates candidates(requests.size());
    for (int step = 0; step < 200; ++step) {
      const size_t cls = rng() % requests.size();
      const Request& r = requests[cls];
      std::vector<size_t> got;
      candidates.Collect(
          cls, nodes.size(), [&](size_t i) { return Admits(nodes[i], r); },
          [&](size_t i) { return Fits(nodes[i], r); }, got);
      std::vector<size_t> want;
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (Admits(nodes[i], r) && Fits(nodes[i], r)) want.push_back(i);
      }
      REQUIRE(got == want);
      // A placement somewhere (not necessarily on a feasible node): resources only shrink.
      Node& n = nodes[rng() % nodes.size()];
      n.cpu -= static_cast<int64_t>(rng() % 15);
      n.memory -= static_cast<int64_t>(rng() % 15);
    }
  }
}

TEST_CASE("a class whose nodes have all run out answers no node, and its first filter scans all",
          "[fill_candidates]") {
  std::vector<Node> nodes = {{10, 10, 0}, {5, 5, 1}, {20, 20, 0}};
  const Request r{8, 8, 0};
  FillCandidates candidates(1);
  std::vector<size_t> got;
  const auto collect = [&] {
    got.clear();
    candidates.Collect(
        0, nodes.size(), [&](size_t i) { return Admits(nodes[i], r); },
        [&](size_t i) { return Fits(nodes[i], r); }, got);
  };
  collect();
  CHECK(got == std::vector<size_t>{0, 2});
  nodes[2].cpu = 7;
  collect();
  CHECK(got == std::vector<size_t>{0});
  nodes[0].memory = 0;
  collect();
  CHECK(got.empty());
  collect();
  CHECK(got.empty());
}

}  // namespace
}  // namespace migsim
