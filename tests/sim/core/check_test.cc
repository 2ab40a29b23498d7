// MIGSIM_CHECK and memory exhausted (issue 25): a broken invariant throws InternalError with
// its message, condition and place, for the CLI to exit 1 and Python to raise; memory
// exhausted while doing something named says what.
#include "sim/core/check.h"

#include <catch2/catch.hpp>
#include <new>
#include <stdexcept>
#include <string>

#include "sim/core/out_of_memory.h"

namespace migsim {
namespace {

TEST_CASE("a broken invariant throws an InternalError naming the message, condition and place",
          "[core][check]") {
  const int room = 0;
  try {
    MIGSIM_CHECK(room > 0, "a launch without room");
    FAIL("no exception");
  } catch (const InternalError& e) {
    const std::string what = e.what();
    CHECK(what.rfind("a launch without room (room > 0) at ", 0) == 0);
    CHECK(what.find("check_test.cc:") != std::string::npos);
  }
  CHECK_NOTHROW([] { MIGSIM_CHECK(1 + 1 == 2, "arithmetic"); }());
}

TEST_CASE(
    "memory exhausted while doing something named becomes OutOfMemory naming it, and the "
    "innermost name wins",
    "[core][check]") {
  const auto exhausted = [] { throw std::bad_alloc(); };
  try {
    NamingOutOfMemory("parsing s.json", exhausted);
    FAIL("no exception");
  } catch (const OutOfMemory& e) {
    CHECK(e.activity() == "parsing s.json");
  }
  try {  // a size past what a vector can hold is memory exhausted too
    NamingOutOfMemory("parsing s.json", [] { throw std::length_error("vector::reserve"); });
    FAIL("no exception");
  } catch (const OutOfMemory& e) {
    CHECK(e.activity() == "parsing s.json");
  }
  try {
    NamingOutOfMemory("loading s.json",
                      [&] { NamingOutOfMemory("parsing m.yaml", exhausted); });
    FAIL("no exception");
  } catch (const OutOfMemory& e) {
    CHECK(e.activity() == "parsing m.yaml");
  }
  CHECK(out_of_memory_activity == nullptr);  // the name goes with the work
  CHECK(NamingOutOfMemory("adding", [] { return 2 + 2; }) == 4);
}

}  // namespace
}  // namespace migsim
