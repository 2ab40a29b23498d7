#include <catch2/catch.hpp>

#include "sim/report/run_report.h"

namespace migsim {
namespace {

TEST_CASE("the pods CSV quotes fields with commas, quotes and line breaks", "[io][csv]") {
  VariantResult v;
  PodRecord pod;
  pod.name = "wf-step(a,b)";
  pod.owner = "Workflow/\"q\"";
  pod.node = "n\r1";
  pod.created = SimTime::Seconds(1.5);
  pod.bound = SimTime::Seconds(2);
  pod.state = "running";
  pod.wait = SimTime::Seconds(0.5);
  v.pods.push_back(pod);
  CHECK(FormatPodsCsv(v) ==
        "name,owner,node,device,created,bound,started,finished,state,reason,restarts,"
        "throughput,slowdown,wait\n"
        "\"wf-step(a,b)\",\"Workflow/\"\"q\"\"\",\"n\r1\",,1.500000,2.000000,,,running,,0,,,"
        "0.500000\n");
}

}  // namespace
}  // namespace migsim
