#pragma once
// Loading scenario documents given as text in tests, as "t.json".

#include <string>

#include "workloads/scenario.h"

namespace migsim::test {

// The error of loading `text`, "t.json:<pointer>: <message>". Fails the test when it loads,
// or fails with another code than InvalidArgument.
std::string LoadError(const std::string& text);

// The first variant of `text`. Fails the test (with the error) when it does not load.
Scenario LoadFirstVariant(const std::string& text);

}  // namespace migsim::test
