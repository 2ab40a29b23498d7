// The migsim executable: parses the command line and hands over to a command.
// Exit codes: 0 success, 1 internal error, 2 bad input or usage.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <string>

#include "sim/cli/calibrate_command.h"
#include "sim/cli/completion_command.h"
#include "sim/cli/explain_command.h"
#include "sim/cli/import_command.h"
#include "sim/cli/job_classes_command.h"
#include "sim/cli/openb_command.h"
#include "sim/cli/plan_command.h"
#include "sim/cli/policies_command.h"
#include "sim/cli/report_command.h"
#include "sim/cli/run_command.h"
#include "sim/cli/sweep_command.h"
#include "sim/cli/uncaught.h"
#include "sim/cli/validate_command.h"
#include "sim/cli/version.h"
#include "sim/io/input_limits.h"
#include "sim/report/pending_outputs.h"

namespace {

// Every subcommand's options; the chosen subcommand's callback sets `code`.
struct Cli {
  migsim::RunCommandOptions run;
  migsim::OpenbOptions openb;
  migsim::PlanOptions plan;
  migsim::SweepOptions sweep;
  migsim::MergeOptions merge;
  migsim::ImportOptions import;
  migsim::ReportOptions report;
  std::string csv, model, scenario;
  std::string catalog_file;  // gpus/nodes/profiles/layouts --scenario
  bool all_profiles = false;
  uint64_t run_seed = 0;  // run's --seed, when given
  int code = 0;
  std::vector<std::string> manifests;  // validate's Kubernetes manifests
  bool json = false;                   // --json of the commands without an options struct
};

// --json: the command's results as one JSON document on stdout (README "JSON of the other
// commands"); progress and warnings stay on stderr.
CLI::App* AddJsonFlag(CLI::App* cmd, bool& json) {
  cmd->add_flag("--json", json, "Print the results as one JSON document instead of text");
  return cmd;
}

// A value given as "" is a mistake (say, a shell variable that was not set), not a request
// for the default: an empty output path would write nothing, an empty shard run them all.
CLI::Validator NonEmpty(const std::string& what, const std::string& kind) {
  return CLI::Validator(
      [what](const std::string& value) { return value.empty() ? "an empty " + what : ""; }, kind);
}
CLI::Validator NonEmptyPath() { return NonEmpty("path", "PATH"); }

// --limit NAME=N (repeatable): raises one of the documented limits (sim/io/input_limits.h,
// README "Limits") before anything is read; a bad one is a usage error.
void AddLimitOption(CLI::App* cmd) {
  cmd->add_option("--limit",
                  "Raise a limit on what the input may create: NAME=N, repeatable "
                  "(README \"Limits\")")
      ->type_name("NAME=N")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->each([](const std::string& value) {
        if (migsim::Status s = migsim::io::SetInputLimit(value); !s.ok()) {
          throw CLI::ValidationError(s.message());
        }
      });
}

void AddRun(CLI::App& app, Cli& cli) {
  migsim::RunCommandOptions& run = cli.run;
  CLI::App* cmd = app.add_subcommand("run", "Simulate a scenario's variants and print the results");
  cmd->add_option("scenario", run.scenario_path, "Scenario file (JSON)")->required();
  cmd->add_option("manifests", run.manifests,
                  "Kubernetes manifests (YAML or JSON files, or directories of them) added to "
                  "the scenario's own");
  cmd->add_flag("--json", run.json, "Print results as JSON instead of a table");
  cmd->add_option("--out", run.out_dir,
                  "Also write summary.json and pods-<variant>.csv into this directory")
      ->check(NonEmptyPath());
  cmd->add_option("--variant", run.variants, "Run only this variant (repeatable)");
  cmd->add_flag("-q,--quiet", run.quiet, "No progress on stderr");
  cmd->add_option("--exact-limit", run.exact_limit,
                  "Percentiles stay exact up to N values, then come from a sketch within "
                  "0.5 %; a run of more than N pods gives back the records of pods that are "
                  "over (default 1048576)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 40));
  AddLimitOption(cmd);
  CLI::Option* seed = cmd->add_option(
      "--seed", cli.run_seed,
      "Replace the seed of the scenario and of every variant: every draw comes from it");
  cmd->add_option("--report", run.report,
                  "Also write a self-contained HTML report (charts, Gantt of GPU slices)")
      ->check(NonEmptyPath());
  cmd->add_option("--trace", run.trace,
                  "Also write Chrome trace-event JSON for Perfetto / chrome://tracing")
      ->check(NonEmptyPath());
  cmd->footer(
      "Examples:\n"
      "  migsim run scenarios/56-superres.json\n"
      "  migsim run scenarios/mig-strategies.json --json\n"
      "  migsim run scenarios/timeslice-cifar10.json --out out/ --variant time-slicing\n"
      "  migsim run scenarios/manifests-seed-001.json extra-deployment.yaml\n"
      "  migsim run scenarios/arrivals-example.json --seed 7");
  cmd->callback([&cli, seed] {
    if (seed->count() > 0) cli.run.seed = cli.run_seed;
    cli.code = migsim::RunCommand(cli.run);
  });
}

void AddCalibrate(CLI::App& app, Cli& cli) {
  std::string& csv = cli.csv;
  CLI::App* cmd =
      app.add_subcommand("calibrate", "Fit a job class's MIG speed curve to measured speeds (CSV)");
  cmd->add_option("measurements", csv, "CSV with the header gpu_model,kind,speed")->required();
  cmd->footer(
      "Example:\n"
      "  migsim calibrate scenarios/measurements/migperf-bert-base-inference.csv\n"
      "Prints alpha and beta of speed(profile)/speed(7g) = (g/G)^alpha (m/M)^beta, the fit\n"
      "and each point's residual; paste the last line into a job class.");
  cmd->add_option("--scenario", cli.catalog_file,
                  "Also accept the GPU models this scenario or catalog file defines")
      ->check(NonEmptyPath());
  AddJsonFlag(cmd, cli.json);
  cmd->callback(
      [&cli] { cli.code = migsim::CalibrateCommand(cli.csv, cli.catalog_file, cli.json); });
}

void AddOpenb(CLI::App& app, Cli& cli) {
  migsim::OpenbOptions& o = cli.openb;
  CLI::App* cmd =
      app.add_subcommand("openb", "Replay the Alibaba openb trace: the ATC'23 FGD fill experiment");
  cmd->add_option("--data", o.data_dir,
                  "Directory with the openb CSVs (default: $MIGSIM_OPENB_DIR, else found beside "
                  "the executable, the install or ../shared/data/openb)");
  cmd->add_option("--nodes", o.nodes, "Node CSV (default: <data>/openb_node_list_gpu_node.csv)");
  cmd->add_option("--trace", o.traces,
                  "Trace name (default, gpushare40, ...), all, or a pod CSV; repeatable");
  cmd->add_option("--policy", o.policies,
                  "random, dot-product, gpu-clustering, gpu-packing, best-fit-share, fgd, all, "
                  "or another built-in policy (migsim policies); repeatable");
  cmd->add_option("--policy-file", o.policy_files,
                  "A JSON policy object as a scenario's \"policy\" (a plugin library, a "
                  "built-in with params, a scored combination); repeatable")
      ->check(NonEmptyPath());
  cmd->add_option("--seeds", o.seeds, "Seeds: 42-51 or 1,2,3")->capture_default_str();
  cmd->add_option("--tune", o.tune, "Top-up target as a fraction of GPU capacity")
      ->capture_default_str();
  cmd->add_option("--out", o.out_dir,
                  "Write alloc_discrete.csv, frag_discrete.csv, "
                  "frag_ratio_discrete.csv, failed_pods.csv and final_state.csv here")
      ->check(NonEmptyPath());
  cmd->add_option("-j,--jobs", o.jobs, "Parallel runs (default: every core)")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("-q,--quiet", o.quiet, "No progress on stderr");
  cmd->add_option("--report", o.report,
                  "Also write a self-contained HTML report (allocation against arrived demand)")
      ->check(NonEmptyPath());
  cmd->add_flag("--mig", o.mig,
                "Also run the MIG edition on p4d nodes: static layouts and dynamic partitioning");
  cmd->footer(
      "Example:\n  migsim openb --trace default --policy all --seeds 42-51 --out out/\n"
      "  migsim openb --policy fgd --policy-file scenarios/openb/fgd-packing.policy.json");
  AddJsonFlag(cmd, o.json);
  cmd->callback([&cli] { cli.code = migsim::OpenbCommand(cli.openb); });
}

void AddPlan(CLI::App& app, Cli& cli) {
  migsim::PlanOptions& o = cli.plan;
  CLI::App* cmd = app.add_subcommand(
      "plan", "Find, per configuration of a node pool, the fewest nodes that meet a plan's SLOs");
  cmd->add_option("plan", o.plan_path, "Plan file (JSON)")->required();
  cmd->add_option("--out", o.out_dir,
                  "Also write plan.csv, evidence.csv and objectives.csv into this directory")
      ->check(NonEmptyPath());
  cmd->add_option("--report", o.report,
                  "Also write a self-contained HTML report (metrics against nodes, objectives)")
      ->check(NonEmptyPath());
  cmd->add_option("-j,--jobs", o.jobs, "Configurations evaluated at once (default: every core)")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("-q,--quiet", o.quiet, "No progress on stderr");
  AddLimitOption(cmd);
  cmd->footer(
      "Example:\n"
      "  migsim plan scenarios/plans/capacity-inference-mix.plan.json --out out/plan\n"
      "Per configuration: 1, 2, 4, ... nodes until the SLOs are met, then a binary search;\n"
      "assumes more nodes never hurt and says 'not monotone' when an evaluation disagrees.");
  AddJsonFlag(cmd, o.json);
  cmd->callback([&cli] { cli.code = migsim::PlanCommand(cli.plan); });
}

void AddSweep(CLI::App& app, Cli& cli) {
  migsim::SweepOptions& o = cli.sweep;
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run a scenario over a grid of parameter values (a sweep file), on all cores");
  cmd->add_option("sweep", o.sweep_path, "Sweep file (JSON)")->required();
  cmd->add_option("-j,--jobs", o.jobs, "Parallel runs (default: every core)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--shard", o.shard,
                  "i/N: run only the points p with p % N == i (default: from "
                  "JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, with MIGSIM_SHARDS=N)")
      ->check(NonEmpty("shard", "i/N"));
  cmd->add_option("--out", o.out_dir,
                  "Also write sweep.csv (sweep-shard-<i>-of-<N>.csv for a shard) here")
      ->check(NonEmptyPath());
  cmd->add_option("--report", o.report,
                  "Also write a self-contained HTML report (each metric against each axis)")
      ->check(NonEmptyPath());
  cmd->add_flag("-q,--quiet", o.quiet, "No progress on stderr");
  AddLimitOption(cmd);
  cmd->footer(
      "Examples:\n"
      "  migsim sweep scenarios/sweeps/superres-nodes.json --out out/\n"
      "  migsim sweep scenarios/sweeps/superres-nodes.json --shard 0/4 --out out/\n"
      "  migsim merge out/                 # after all shards: out/sweep.csv");
  AddJsonFlag(cmd, o.json);
  cmd->callback([&cli] { cli.code = migsim::SweepCommand(cli.sweep); });
  migsim::MergeOptions& m = cli.merge;
  CLI::App* merge = app.add_subcommand(
      "merge", "Merge the CSVs of a sharded sweep into sweep.csv and print its table");
  merge
      ->add_option("inputs", m.inputs,
                   "Directory with sweep-shard-<i>-of-<N>.csv files, or the files")
      ->required();
  merge
      ->add_option("--out", m.out_dir,
                   "Write sweep.csv here (default: the directory of the shards)")
      ->check(NonEmptyPath());
  merge->footer("Example:\n  migsim merge out/");
  AddJsonFlag(merge, m.json);
  merge->callback([&cli] { cli.code = migsim::MergeCommand(cli.merge); });
}

void AddReport(CLI::App& app, Cli& cli) {
  migsim::ReportOptions& o = cli.report;
  CLI::App* cmd = app.add_subcommand(
      "report", "Redraw the HTML report of a finished sweep, plan or openb study from its files");
  cmd->add_option("dir", o.dir, "The study's --out directory")->required()->check(NonEmptyPath());
  cmd->add_option("--out", o.out, "Write the report here (default: DIR/report.html)")
      ->check(NonEmptyPath());
  cmd->footer(
      "Example:\n  migsim sweep scenarios/sweeps/superres-nodes.json --out out/\n"
      "  migsim report out/                 # out/report.html");
  cmd->callback([&cli] { cli.code = migsim::ReportCommand(cli.report); });
}

// A subcommand with one example and a callback.
CLI::App* Sub(CLI::App& app, const char* name, const char* what, const char* example,
              std::function<void()> run) {
  CLI::App* cmd = app.add_subcommand(name, what);
  cmd->footer(std::string("Example:\n  ") + example);
  cmd->callback(std::move(run));
  return cmd;
}

// The commands that explain the catalog and check scenarios.
void AddExplain(CLI::App& app, Cli& cli) {
  // --scenario FILE: also the GPU models and node types a scenario or catalog file defines.
  auto with_catalog = [&cli](CLI::App* cmd) {
    cmd->add_option("--scenario", cli.catalog_file,
                    "Also show the GPU models and node types this scenario or catalog file "
                    "defines")
        ->check(NonEmptyPath());
    return AddJsonFlag(cmd, cli.json);
  };
  with_catalog(Sub(app, "gpus", "List the GPU models and their MIG slots", "migsim gpus",
                   [&cli] { cli.code = migsim::GpusCommand(cli.catalog_file, cli.json); }));
  with_catalog(
      Sub(app, "profiles", "Show a GPU model's MIG profiles", "migsim profiles A100-40GB",
          [&cli] { cli.code = migsim::ProfilesCommand(cli.model, cli.catalog_file, cli.json); }))
      ->add_option("model", cli.model, "GPU model, e.g. A100-40GB")
      ->required();
  CLI::App* layouts = with_catalog(Sub(
      app, "layouts", "Draw every maximal MIG layout of a model",
      "migsim layouts A100-40GB        # the 19 classic layouts", [&cli] {
        cli.code = migsim::LayoutsCommand(cli.model, cli.all_profiles, cli.catalog_file, cli.json);
      }));
  layouts->add_option("model", cli.model, "GPU model, e.g. A100-40GB")->required();
  layouts->add_flag("--all", cli.all_profiles, "Include +me and double-memory 1g profiles");
  with_catalog(Sub(app, "nodes", "List the node types: GPUs, vCPU, memory, prices", "migsim nodes",
                   [&cli] { cli.code = migsim::NodesCommand(cli.catalog_file, cli.json); }));
  CLI::App* validate =
      Sub(app, "validate",
          "Check a scenario, sweep or plan file and show what it would simulate, without "
          "running it",
          "migsim validate scenarios/mig-strategies.json\n"
          "  migsim validate scenarios/sweeps/superres-nodes.json",
          [&cli] { cli.code = migsim::ValidateCommand(cli.scenario, cli.manifests, cli.json); });
  validate->add_option("scenario", cli.scenario,
                       "Scenario (JSON or YAML), sweep or plan file: told apart by its \"$schema\" "
                       "or its members")
      ->required();
  validate->add_option("manifests", cli.manifests,
                       "Kubernetes manifests (YAML or JSON files, or directories of them) added "
                       "to the scenario's own");
  AddLimitOption(validate);
  AddJsonFlag(validate, cli.json);
  AddJsonFlag(Sub(app, "policies", "List the scheduling policies and their parameters",
                  "migsim policies", [&cli] { cli.code = migsim::PoliciesCommand(cli.json); }),
              cli.json);
  AddJsonFlag(Sub(app, "job-classes", "List the built-in job classes with their speeds and sources",
                  "migsim job-classes", [&cli] { cli.code = migsim::JobClassesCommand(cli.json); }),
              cli.json);
}

void AddImport(CLI::App& app, Cli& cli) {
  migsim::ImportOptions& o = cli.import;
  CLI::App* cmd = app.add_subcommand(
      "import", "Turn a cluster snapshot (kubectl get nodes / pods -A -o json) into a scenario");
  cmd->add_option("--nodes", o.nodes_path, "kubectl get nodes -o json ('-': standard input)")
      ->required()
      ->check(NonEmptyPath());
  cmd->add_option("--pods", o.pods_path, "kubectl get pods -A -o json ('-': standard input)")
      ->required()
      ->check(NonEmptyPath());
  cmd->add_option("--out", o.out, "Write the scenario here ('-': standard output)")
      ->capture_default_str()
      ->check(NonEmptyPath());
  cmd->add_option("--name", o.name, "The scenario's name")->capture_default_str();
  cmd->add_option("--run-s", o.run_s,
                  "Placeholder run time of the job classes written for Jobs and bare pods")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--horizon-s", o.horizon_s, "The scenario's horizon_s")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--telemetry", o.telemetry_dir,
                  "A folder of Prometheus exports, <metric>.json each (README 'Telemetry export'): "
                  "observed run times, duty cycles, GPU memory, arrivals")
      ->check(NonEmptyPath());
  cmd->add_option("--jobs", o.jobs_path,
                  "kubectl get jobs -A -o json: a Job's startTime/completionTime as its run time "
                  "when no pod says")
      ->check(NonEmptyPath());
  cmd->footer(
      "Example:\n"
      "  kubectl get nodes -o json > nodes.json; kubectl get pods -A -o json > pods.json\n"
      "  migsim import --nodes nodes.json --pods pods.json --out scenario.json\n"
      "  migsim import --nodes nodes.json --pods pods.json --jobs jobs.json \\\n"
      "      --telemetry telemetry/ --out scenario.json\n"
      "  migsim run scenario.json\n"
      "  kubectl get pods -A -o json | migsim import --pods - --nodes nodes.json --out s.json\n"
      "Bound pods start on their nodes (nodeName), pending pods queue at time 0; warnings and\n"
      "notices go to stderr. README.md, 'migsim import', has the mapping.");
  AddJsonFlag(cmd, o.json);
  cmd->callback([&cli] { cli.code = migsim::ImportCommand(cli.import); });
}

}  // namespace

int main(int argc, char** argv) {
  // Ctrl-C, SIGTERM, SIGHUP and a file-size limit leave no temporary or partial outputs.
  migsim::InstallOutputCleanup();
  migsim::ExitOnTerminate();  // what nothing catches still exits 1 with its message
  CLI::App app{"migsim: a discrete-event simulator of Kubernetes GPU clusters with MIG"};
  app.set_version_flag("--version", migsim::VersionLine());
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success, 1 internal error, 2 bad input or usage.\n"
      "Run 'migsim SUBCOMMAND --help' for a subcommand's options and examples.");
  Cli cli;
  AddRun(app, cli);
  AddCalibrate(app, cli);
  AddOpenb(app, cli);
  AddExplain(app, cli);
  AddPlan(app, cli);
  AddSweep(app, cli);
  AddImport(app, cli);
  AddReport(app, cli);
  migsim::AddCompletion(app, cli.code);  // last: it describes the others
  try {
    app.parse(argc, argv);  // runs the chosen subcommand's callback
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (...) {  // an internal error or memory exhausted: one line, exit 1 (uncaught.h)
    const std::vector<CLI::App*> command = app.get_subcommands();
    return migsim::ExitOnUncaught(
        std::current_exception(),
        "running 'migsim" + (command.empty() ? "" : " " + command.front()->get_name()) + "'");
  }
  return cli.code;
}
