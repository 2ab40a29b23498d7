// The migsim executable: parses the command line and hands over to a command.
// Exit codes: 0 success, 1 internal error, 2 bad input or usage.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "sim/cli/calibrate_command.h"
#include "sim/cli/explain_command.h"
#include "sim/cli/job_classes_command.h"
#include "sim/cli/openb_command.h"
#include "sim/cli/run_command.h"
#include "sim/cli/validate_command.h"

namespace {

void AddRun(CLI::App& app, migsim::RunOptions& run) {
  CLI::App* cmd = app.add_subcommand("run", "Simulate a scenario's variants and print the results");
  cmd->add_option("scenario", run.scenario_path, "Scenario file (JSON)")->required();
  cmd->add_flag("--json", run.json, "Print results as JSON instead of a table");
  cmd->add_option("--out", run.out_dir,
                  "Also write summary.json and pods-<variant>.csv into this directory");
  cmd->add_option("--variant", run.variants, "Run only this variant (repeatable)");
  cmd->add_flag("-q,--quiet", run.quiet, "No progress on stderr");
  cmd->add_option("--report", run.report,
                  "Also write a self-contained HTML report (charts, Gantt of GPU slices)");
  cmd->add_option("--trace", run.trace,
                  "Also write Chrome trace-event JSON for Perfetto / chrome://tracing");
  cmd->footer(
      "Examples:\n"
      "  migsim run scenarios/56-superres.json\n"
      "  migsim run scenarios/mig-strategies.json --json\n"
      "  migsim run scenarios/timeslice-cifar10.json --out out/ --variant time-slicing");
}

CLI::App* AddCalibrate(CLI::App& app, std::string& csv) {
  CLI::App* cmd =
      app.add_subcommand("calibrate", "Fit a job class's MIG speed curve to measured speeds (CSV)");
  cmd->add_option("measurements", csv, "CSV with the header gpu_model,kind,speed")->required();
  cmd->footer(
      "Example:\n"
      "  migsim calibrate scenarios/measurements/migperf-bert-base-inference.csv\n"
      "Prints alpha and beta of speed(profile)/speed(7g) = (g/G)^alpha (m/M)^beta, the fit\n"
      "and each point's residual; paste the last line into a job class.");
  return cmd;
}

CLI::App* AddOpenb(CLI::App& app, migsim::OpenbOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("openb", "Replay the Alibaba openb trace: the ATC'23 FGD fill experiment");
  const char* env = std::getenv("MIGSIM_OPENB_DIR");
  o.data_dir = env ? env : "../shared/data/openb";
  cmd->add_option("--data", o.data_dir, "Directory with the openb CSVs ($MIGSIM_OPENB_DIR)")
      ->capture_default_str();
  cmd->add_option("--nodes", o.nodes, "Node CSV (default: <data>/openb_node_list_gpu_node.csv)");
  cmd->add_option("--trace", o.traces,
                  "Trace name (default, gpushare40, ...) or pod CSV; repeatable");
  cmd->add_option("--policy", o.policies,
                  "random, dot-product, gpu-clustering, gpu-packing, best-fit-share, fgd, or all");
  cmd->add_option("--seeds", o.seeds, "Seeds: 42-51 or 1,2,3")->capture_default_str();
  cmd->add_option("--tune", o.tune, "Top-up target as a fraction of GPU capacity")
      ->capture_default_str();
  cmd->add_option("--out", o.out_dir,
                  "Write alloc_discrete.csv, frag_discrete.csv, "
                  "frag_ratio_discrete.csv and failed_pods.csv here");
  cmd->add_option("-j,--jobs", o.jobs, "Parallel runs (default: every core)");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress on stderr");
  cmd->add_flag("--mig", o.mig,
                "Also run the MIG edition on p4d nodes: static layouts and dynamic partitioning");
  cmd->footer("Example:\n  migsim openb --trace default --policy all --seeds 42-51 --out out/");
  return cmd;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"migsim: a discrete-event simulator of Kubernetes GPU clusters with MIG"};
  app.set_version_flag("--version", "migsim 0.1.0");
  app.require_subcommand(1);
  migsim::RunOptions run;
  AddRun(app, run);
  std::string csv;
  CLI::App* calibrate = AddCalibrate(app, csv);
  migsim::OpenbOptions openb;
  CLI::App* openb_cmd = AddOpenb(app, openb);
  std::string model;
  bool all_profiles = false;
  CLI::App* gpus = app.add_subcommand("gpus", "List the GPU models and their MIG slots");
  CLI::App* profiles = app.add_subcommand("profiles", "Show a GPU model's MIG profiles");
  profiles->add_option("model", model, "GPU model, e.g. A100-40GB")->required();
  profiles->footer("Example:\n  migsim profiles A100-40GB");
  CLI::App* layouts = app.add_subcommand("layouts", "Draw every maximal MIG layout of a model");
  layouts->add_option("model", model, "GPU model, e.g. A100-40GB")->required();
  layouts->add_flag("--all", all_profiles, "Include +me and double-memory 1g profiles");
  layouts->footer("Example:\n  migsim layouts A100-40GB        # the 19 classic layouts");
  std::string validate_path;
  CLI::App* validate = app.add_subcommand(
      "validate", "Check a scenario and show what it would simulate, without running it");
  validate->add_option("scenario", validate_path, "Scenario file (JSON)")->required();
  validate->footer("Example:\n  migsim validate scenarios/mig-strategies.json");
  CLI::App* nodes = app.add_subcommand("nodes", "List the node types: GPUs, vCPU, memory, price");
  CLI::App* job_classes = app.add_subcommand(
      "job-classes", "List the built-in job classes with their speeds and sources");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (calibrate->parsed()) return migsim::CalibrateCommand(csv);
    if (job_classes->parsed()) return migsim::JobClassesCommand();
    if (gpus->parsed()) return migsim::GpusCommand();
    if (profiles->parsed()) return migsim::ProfilesCommand(model);
    if (layouts->parsed()) return migsim::LayoutsCommand(model, all_profiles);
    if (nodes->parsed()) return migsim::NodesCommand();
    if (validate->parsed()) return migsim::ValidateCommand(validate_path);
    if (openb_cmd->parsed()) return migsim::OpenbCommand(openb);
    return migsim::RunCommand(run);
  } catch (const std::exception& e) {
    std::cerr << "migsim: internal error: " << e.what() << "\n";
    return 1;
  }
}
