// The summary table's optional rows and notes.

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sim/report/run_report.h"

namespace migsim {
namespace {

// The cells of the table's row `label`, single-spaced ("" when there is no such row).
std::string Cells(const std::string& table, const std::string& label) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(label + "  ", 0) != 0) continue;
    std::istringstream words(line.substr(label.size()));
    std::string cells;
    for (std::string w; words >> w;) cells += (cells.empty() ? "" : " ") + w;
    return cells;
  }
  return "";
}

TEST_CASE("the table has gang rows only when a variant has gangs, and names those never run",
          "[report][gang]") {
  ScenarioFile file;
  file.name = "s";
  RunReport report{.file = &file, .variants = {}};
  VariantResult plain;
  plain.name = "plain";
  report.variants.push_back(plain);
  CHECK_THAT(FormatSummaryTable(report), !Catch::Contains("gang"));

  VariantResult gangs;
  gangs.name = "gangs";
  GangMetrics g;
  g.gangs = 2;
  g.never_scheduled = 1;
  g.waiting = 1;
  g.timeouts = 3;
  g.wait.mean_s = 12.5;
  g.wait.max_s = 20;
  g.never_scheduled_owners = {"DistributedJob/big"};
  gangs.gangs = g;
  report.variants.push_back(gangs);
  const std::string table = FormatSummaryTable(report);
  CHECK(Cells(table, "gangs") == "- 2");
  CHECK(Cells(table, "gangs never scheduled") == "- 1");
  CHECK(Cells(table, "gangs waiting at the end") == "- 1");
  CHECK(Cells(table, "gang wait mean (s)") == "- 12.5");
  CHECK(Cells(table, "gang wait max (s)") == "- 20.0");
  CHECK(Cells(table, "gang reservation timeouts") == "- 3");
  CHECK_THAT(table, Catch::Contains("gangs never scheduled: DistributedJob/big (gangs)\n"));
}

TEST_CASE("the table leaves job rows out without a job, and shows the cost per month",
          "[report][unserved]") {
  ScenarioFile file;
  file.name = "s";
  RunReport report{.file = &file, .variants = {}};
  VariantResult service;  // a Deployment only: no job, pods never complete
  service.name = "service";
  service.metrics.unserved.longest_wait_s = 36360;
  service.metrics.unserved.deleted_unbound = 28;
  service.metrics.unserved.pending = {.peak = 32, .mean = 4.25};
  AutoscalingMetrics cost;
  cost.node_hours = 96;
  cost.cost = 195.456;  // 6 nodes x $16.288/h x 2 h
  cost.run_hours = 2;
  cost.cost_per_completed_pod = 1.5;
  service.autoscaling = cost;
  report.variants.push_back(service);
  std::string table = FormatSummaryTable(report);
  CHECK(Cells(table, "longest wait (s)") == "36360.0");
  CHECK(Cells(table, "pods pending peak") == "32");
  CHECK(Cells(table, "pods pending mean") == "4.25");
  CHECK(Cells(table, "pods deleted unbound") == "28");
  CHECK(Cells(table, "cost ($)") == "195.46");
  CHECK(Cells(table, "cost per month ($)") == "71341.44");  // 97.728 $/h x 730 h
  for (const char* job_row : {"makespan (s)", "run time mean (s)", "throughput (per s)",
                              "cost per completed pod ($)", "jobs completed", "JCT mean (s)"}) {
    INFO(job_row);
    CHECK(Cells(table, job_row).empty());
  }
  CHECK_THAT(table, !Catch::Contains("not in the makespan"));

  VariantResult batch;
  batch.name = "batch";
  batch.metrics.jobs.completed = 1;
  batch.metrics.makespan_s = 10;
  report.variants.push_back(batch);
  table = FormatSummaryTable(report);
  CHECK(Cells(table, "makespan (s)") == "- 10.0");
  CHECK(Cells(table, "cost per completed pod ($)") == "1.5000 -");
  CHECK(Cells(table, "jobs completed") == "0 1");
}

TEST_CASE("pods deleted without ever binding are warned of, one line per variant",
          "[report][unserved]") {
  ScenarioFile file;
  file.name = "s";
  RunReport report{.file = &file, .variants = {}};
  VariantResult served, unserved;
  served.name = "ten";
  unserved.name = "six";
  unserved.metrics.unserved.deleted_unbound = 28;
  unserved.metrics.unserved.deleted_unbound_wait.max_s = 36360;
  WaitingGroup chat, train;
  chat.name = "Deployment/chat";
  chat.deleted_unbound = 28;
  train.name = "Job/train";
  unserved.metrics.unserved.workloads = {chat, train};
  report.variants = {served, unserved};
  CHECK(UnservedWarnings(report) ==
        std::vector<std::string>{"variant six: 28 pods were deleted without ever binding "
                                 "(Deployment/chat 28), the longest after 10.1 h"});
  const std::string html = FormatHtmlReport(report);
  CHECK_THAT(html, Catch::Contains("<p class=\"warning\">warning: variant six: 28 pods were "
                                   "deleted without ever binding"));
}

TEST_CASE("a policy's rejected answers show in the table, the JSON and a warning",
          "[report][policy]") {
  ScenarioFile file;
  file.name = "s";
  RunReport report{.file = &file, .variants = {}};
  VariantResult clean, rejected;
  clean.name = "base", clean.policy = "first-fit", clean.policy_decisions = 12;
  rejected.name = "plugin", rejected.policy = "mine", rejected.policy_decisions = 5000;
  rejected.rejected_decisions = 1234;
  rejected.first_rejection = "at 0 s, pod p-0: node 999 does not exist (the cluster has 2 nodes)";
  report.variants = {clean};
  CHECK(Cells(FormatSummaryTable(report), "policy decisions rejected").empty());
  CHECK(RejectionWarnings(report).empty());
  report.variants = {clean, rejected};
  CHECK(Cells(FormatSummaryTable(report), "policy decisions rejected") == "0 of 12 1234 of 5000");
  CHECK(RejectionWarnings(report) ==
        std::vector<std::string>{"policy 'mine' in variant 'plugin': 1234 of 5000 decisions were "
                                 "rejected (first: at 0 s, pod p-0: node 999 does not exist (the "
                                 "cluster has 2 nodes))"});
  const std::string json = FormatResultsJson(report);
  CHECK_THAT(json, Catch::Contains(R"("first_rejection": null)") &&
                       Catch::Contains(R"("policy_decisions": 5000)") &&
                       Catch::Contains(R"("rejected_decisions": 1234)") &&
                       Catch::Contains(R"("first_rejection": "at 0 s, pod p-0: node 999)"));
  CHECK_THAT(FormatHtmlReport(report),
             Catch::Contains("<p class=\"warning\">warning: policy &#39;mine&#39; in variant"));
}

}  // namespace
}  // namespace migsim
