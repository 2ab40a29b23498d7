// The Catch2 runner for the whole suite.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
