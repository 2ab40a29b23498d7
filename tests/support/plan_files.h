#pragma once
// A tiny plan world shared by the plan tests (loader, runner): a scenario of ten one-GPU
// pods and a plan over it, read from an in-memory file map.

#include <map>
#include <string>

#include "sim/io/plan_json.h"

namespace migsim::test {

// Ten one-GPU pods that run 100 s, all created at 0; the run stops at 50 s, so a pod
// that did not get a GPU at once is still pending then. A g4dn.xlarge has one T4.
extern const char* const kPlanScenario;

// A plan on kPlanScenario with configurations "whole" and "ts2" and max_pending 0;
// `extra` is spliced in as further top-level members.
std::string PlanText(const std::string& extra = "", int max_nodes = 16);

// Reads files from a map; plans live in plans/, so "../s.json" is "s.json".
ReadTextFile FilesFromMap(std::map<std::string, std::string> files);

// `plan` parsed as plans/p.json, with `scenario` as ../s.json.
Result<PlanFile> LoadPlan(const std::string& plan, const std::string& scenario = kPlanScenario);

}  // namespace migsim::test
