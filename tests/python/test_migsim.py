"""The migsim Python module (sim/python): loading, running, results, Python policies."""
import json
import math
import os
import subprocess
import tempfile
import unittest

import migsim

SOURCE = os.environ.get("MIGSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCENARIOS = os.path.join(SOURCE, "scenarios")
SUPERRES = os.path.join(SCENARIOS, "56-superres.json")
# Eight nodes where best-fit, spread (its policy) and first-fit place pods differently.
CAPACITY = os.path.join(SCENARIOS, "capacity-inference-mix.json")
# Pods arriving at random, drawn from the seed when the scenario is loaded.
ARRIVALS = os.path.join(SCENARIOS, "arrivals-example.json")
# The migsim executable (tests/CMakeLists.txt sets it).
MIGSIM = os.environ.get("MIGSIM_BINARY", "")


class FirstFit:
    name = "py-first-fit"

    def place(self, view, pod):
        for node in view.nodes:
            if view.fits(pod, node):
                return node.id
        return None


class BestFit:
    """The built-in best-fit (policies/allocation_score.cc) in Python: the node that would
    be most allocated with the pod, over the pod's GPU resources, else cpu and memory."""
    name = "py-best-fit"

    def score(self, view, pod, node):
        def fraction(requested, extra, allocatable):
            return 1.0 if allocatable <= 0 else (requested + extra) / allocatable
        terms = [fraction(node.requested.get(r, 0), n, node.allocatable.get(r, 0))
                 for r, n in pod.requests.items()]
        if not terms:
            terms = [fraction(node.cpu_milli_requested, pod.cpu_milli, node.cpu_milli_allocatable),
                     fraction(node.memory_mib_requested, pod.memory_mib,
                              node.memory_mib_allocatable)]
        return 100.0 * (sum(terms) / len(terms))


class TestInternalError(unittest.TestCase):
    def test_an_internal_error_is_a_runtime_error_of_the_module_not_the_end_of_the_interpreter(self):
        # MIGSIM_CHECK throws migsim::InternalError; the module maps it to this class.
        self.assertTrue(issubclass(migsim.InternalError, RuntimeError))
        self.assertEqual(migsim.InternalError.__module__, "migsim")


class TestRun(unittest.TestCase):
    def test_a_scenario_runs_with_its_own_policy_and_reports_the_golden_makespan(self):
        scenario = migsim.load(SUPERRES)
        self.assertEqual(scenario.variants, ["mig-1g.5gb", "whole-gpu"])
        result = migsim.run(scenario, variant="mig-1g.5gb")
        self.assertEqual(result["name"], "mig-1g.5gb")
        self.assertEqual(result["policy"], "first-fit")
        self.assertEqual(result["seed"], 1)
        self.assertEqual(result["metrics"]["makespan_s"], 87.0)
        self.assertEqual(result["metrics"]["pods"]["completed"], 57)
        self.assertEqual(result["rejected_decisions"], 0)

    def test_without_a_variant_run_gives_one_dict_per_variant_in_file_order(self):
        results = migsim.run(SUPERRES)
        self.assertEqual([r["name"] for r in results], ["mig-1g.5gb", "whole-gpu"])
        with self.assertRaises(ValueError):
            migsim.run(SUPERRES, variant="nope")

    def test_the_metrics_carry_the_json_outputs_names(self):
        metrics = migsim.run(SUPERRES, variant="whole-gpu")["metrics"]
        self.assertEqual(set(metrics), {"makespan_s", "queueing_latency_s", "gpu_allocation_ratio",
                                        "gpu_compute_utilization", "run_time_s", "throughput",
                                        "pods", "end_s", "preemption", "unserved", "jobs",
                                        "gpu_hours", "tenants", "jain_fairness_index"})
        self.assertEqual(set(metrics["unserved"]),
                         {"deleted_unbound", "deleted_unbound_wait_s", "never_bound",
                          "longest_wait_s", "pending_peak", "pending_mean", "workloads",
                          "namespaces"})
        self.assertEqual(set(metrics["queueing_latency_s"]),
                         {"mean", "p50", "p95", "p99", "max", "count"})

    def test_jobs_and_tenants_are_reported_as_in_the_json_output(self):
        metrics = migsim.run(SUPERRES, variant="whole-gpu")["metrics"]
        # The super-resolution Workflow is one job: 243 s from its first pod to its last.
        self.assertEqual(metrics["jobs"]["completed"], 1)
        self.assertEqual(metrics["jobs"]["completion_time_s"]["mean"], 243.0)
        self.assertGreater(metrics["jobs"]["slowdown"]["mean"], 1.0)
        self.assertEqual(list(metrics["tenants"]), ["default"])
        self.assertEqual(metrics["tenants"]["default"]["gpu_share"], 1.0)
        self.assertAlmostEqual(metrics["tenants"]["default"]["gpu_hours"], metrics["gpu_hours"])
        self.assertEqual(metrics["jain_fairness_index"], 1.0)

    def test_the_same_call_twice_gives_identical_results(self):
        self.assertEqual(migsim.run(CAPACITY, policy="random", seed=5),
                         migsim.run(CAPACITY, policy="random", seed=5))
        self.assertEqual(migsim.run(SUPERRES, policy=BestFit()),
                         migsim.run(SUPERRES, policy=BestFit()))

    def test_a_seed_replaces_the_scenarios(self):
        with self.assertWarns(UserWarning):
            self.assertEqual([r["seed"] for r in migsim.run(SUPERRES, seed=7)], [7, 7])

    def test_a_built_in_policy_is_named_and_an_unknown_one_is_a_value_error(self):
        self.assertIn("best-fit", migsim.policies())
        self.assertEqual(migsim.run(CAPACITY, policy="spread")[0]["policy"], "spread")
        with self.assertRaises(ValueError) as caught:
            migsim.run(CAPACITY, policy="nope")
        self.assertIn("unknown policy 'nope' (known: first-fit, ", str(caught.exception))


def same_figures(ours, theirs, where="metrics"):
    """The figures both carry, equal up to the JSON output's rounding (6 digits); the count
    of figures compared."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return sum(same_figures(ours[k], theirs[k], where + "." + k) for k in set(ours) & set(theirs))
    if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)):
        if not math.isclose(ours, theirs, rel_tol=1e-5, abs_tol=1e-6):
            raise AssertionError("%s: %r != %r" % (where, ours, theirs))
        return 1
    if ours != theirs:
        raise AssertionError("%s: %r != %r" % (where, ours, theirs))
    return 1


def binary_env():
    """The environment for the migsim binary: without LD_PRELOAD, which the sanitizer build
    sets for this interpreter (tests/CMakeLists.txt) and which an ASan-linked binary refuses
    ("incompatible ASan runtimes")."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


class TestSeed(unittest.TestCase):
    def test_two_seeds_draw_two_different_runs_of_a_scenario_with_random_arrivals(self):
        one = migsim.run(ARRIVALS, variant="base", seed=1)
        seven = migsim.run(ARRIVALS, variant="base", seed=7)
        self.assertEqual((one["seed"], seven["seed"]), (1, 7))
        self.assertNotEqual(one["metrics"]["makespan_s"], seven["metrics"]["makespan_s"])
        self.assertNotEqual(one["metrics"], seven["metrics"])
        # The file's seed is 1.
        self.assertEqual(one["metrics"], migsim.run(ARRIVALS, variant="base")["metrics"])

    def test_a_loaded_scenario_is_read_again_with_the_seed(self):
        scenario = migsim.load(ARRIVALS)
        self.assertEqual(migsim.run(scenario, variant="busier", seed=7)["metrics"],
                         migsim.run(ARRIVALS, variant="busier", seed=7)["metrics"])

    def test_each_seed_gives_the_metrics_of_migsim_run_with_that_seed(self):
        self.assertTrue(os.path.exists(MIGSIM), "MIGSIM_BINARY names no file: " + MIGSIM)
        for seed in (1, 7):
            out = subprocess.run([MIGSIM, "run", ARRIVALS, "--seed", str(seed), "--json", "-q"],
                                 check=True, capture_output=True, text=True,
                                 env=binary_env()).stdout
            cli = {v["name"]: v for v in json.loads(out)["variants"]}
            for result in migsim.run(ARRIVALS, seed=seed):
                self.assertGreaterEqual(
                    same_figures(result["metrics"], cli[result["name"]]["metrics"]), 20)
                self.assertEqual(cli[result["name"]]["seed"], seed)

    def test_each_run_reports_the_energy_migsim_run_reports(self):
        out = subprocess.run([MIGSIM, "run", SUPERRES, "--json", "-q"], check=True,
                             capture_output=True, text=True, env=binary_env()).stdout
        cli = {v["name"]: v for v in json.loads(out)["variants"]}
        for result in migsim.run(SUPERRES):
            energy = result["energy"]
            self.assertGreater(energy["gpu_kwh"], 0)
            self.assertAlmostEqual(energy["kwh"], energy["gpu_kwh"] + energy["node_kwh"])
            self.assertGreaterEqual(
                same_figures(energy, cli[result["name"]]["energy"], "energy"), 10)

    def test_a_seed_that_changes_nothing_is_said_once(self):
        with self.assertWarnsRegex(UserWarning, "seed 7 changes nothing: scenario '56-superres' "
                                                "draws nothing at random"):
            migsim.run(SUPERRES, variant="whole-gpu", seed=7)


class TestPodsTable(unittest.TestCase):
    def setUp(self):
        self.pods = migsim.run(SUPERRES, variant="whole-gpu")["pods"]

    def test_the_pods_table_is_columnar_with_equal_lengths(self):
        self.assertEqual({len(column) for column in self.pods.values()}, {57})
        for column in ("name", "owner", "node", "device", "created_s", "bound_s", "started_s",
                       "ended_s", "state", "reason", "restarts"):
            self.assertIn(column, self.pods)
        self.assertEqual(set(self.pods["state"]), {"completed"})

    def test_pandas_takes_the_pods_table_as_it_is(self):
        try:
            import pandas  # Debian's python3-pandas, where installed; not a dependency
        except ImportError:
            self.skipTest("pandas is not installed")
        frame = pandas.DataFrame(self.pods)
        self.assertEqual(frame.shape, (57, len(self.pods)))


class TestPythonPolicy(unittest.TestCase):
    def test_a_python_first_fit_gives_the_built_in_first_fits_results(self):
        built_in = migsim.run(CAPACITY, policy="first-fit")
        python = migsim.run(CAPACITY, policy=FirstFit())
        self.assertEqual(python[0]["policy"], "py-first-fit")
        for a, b in zip(built_in, python):
            self.assertEqual(a["metrics"], b["metrics"])
            self.assertEqual(a["pods"], b["pods"])

    def test_a_python_best_fit_by_score_gives_the_built_in_best_fits_results(self):
        built_in = migsim.run(CAPACITY, policy="best-fit")[0]
        python = migsim.run(CAPACITY, policy=BestFit())[0]
        self.assertEqual(python["pods"], built_in["pods"])
        self.assertEqual(python["metrics"], built_in["metrics"])
        first_fit = migsim.run(CAPACITY, policy="first-fit")[0]
        self.assertNotEqual(python["pods"]["node"], first_fit["pods"]["node"])

    def test_a_filter_keeps_pods_off_the_nodes_it_refuses(self):
        class NotGpu0:
            def filter(self, view, pod, node):
                return node.name != "gpu-0"
        nodes = migsim.run(CAPACITY, policy=NotGpu0())[0]["pods"]["node"]
        self.assertNotIn("gpu-0", nodes)
        self.assertIn("gpu-1", nodes)

    def test_a_bad_answer_is_rejected_counted_and_leaves_the_pod_pending(self):
        class Wrong:
            def place(self, view, pod):
                return 999
        result = migsim.run(SUPERRES, variant="whole-gpu", policy=Wrong())
        self.assertGreater(result["rejected_decisions"], 0)
        self.assertEqual(result["metrics"]["pods"]["completed"], 0)
        self.assertGreater(result["metrics"]["pods"]["pending"], 0)
        self.assertEqual(set(result["pods"]["state"]), {"pending"})

    def test_an_exception_in_the_policy_comes_out_of_run(self):
        calls = []

        class Broken:
            def score(self, view, pod, node):
                calls.append(pod.id)
                raise KeyError("boom")
        with self.assertRaises(KeyError) as caught:
            migsim.run(SUPERRES, policy=Broken())
        self.assertEqual(str(caught.exception), "'boom'")
        self.assertEqual(len(calls), 1)  # the policy is not called again
        self.assertEqual(migsim.run(SUPERRES)[0]["metrics"]["makespan_s"], 87.0)

    def test_an_answer_of_the_wrong_type_is_a_type_error_naming_the_method(self):
        cases = {"place": lambda view, pod: True,
                 "filter": lambda view, pod, node: None,
                 "score": lambda view, pod, node: "high"}
        for method, answer in cases.items():
            policy = type("Bad", (), {method: staticmethod(answer)})()
            with self.assertRaises(TypeError) as caught:
                migsim.run(SUPERRES, variant="whole-gpu", policy=policy)
            self.assertTrue(str(caught.exception).startswith(method + "() must return"),
                            str(caught.exception))

    def test_the_view_shows_nodes_devices_and_the_pod(self):
        seen = {}

        class Looker:
            def place(self, view, pod):
                node = view.nodes[0]
                seen.update(now=view.now_s, n=len(view.nodes), name=view.nodes[-1].name,
                            devices=node.devices, model=node.gpu_model, requests=pod.requests,
                            ids=[n.id for n in view.nodes])
                return None
        migsim.run(SUPERRES, variant="mig-1g.5gb", policy=Looker())
        self.assertEqual((seen["n"], seen["name"], seen["ids"]), (1, "p4d-0", [0]))
        self.assertEqual(len(seen["devices"]), 56)
        self.assertEqual((seen["devices"][1]["mig_profile"], seen["devices"][1]["mig_start"]),
                         ("1g.5gb", 1))
        self.assertEqual(seen["requests"], {})  # the first pod, gen-number-list

    def test_a_whole_gpu_has_no_mig_profile_or_start(self):
        devices = []

        class Looker:
            def place(self, view, pod):
                devices.extend(view.nodes[0].devices)
                return None
        migsim.run(SUPERRES, variant="whole-gpu", policy=Looker())
        self.assertEqual((devices[0]["mig_profile"], devices[0]["mig_start"]), (None, None))

    def test_a_view_is_read_only_and_refuses_to_be_read_after_its_call(self):
        kept, refused = [], []

        class Keeper(FirstFit):
            def place(self, view, pod):
                kept.append((view, view.nodes[0]))
                try:
                    view.nodes[0].schedulable = False
                except AttributeError:
                    refused.append(pod.id)
                return super().place(view, pod)
        migsim.run(SUPERRES, variant="whole-gpu", policy=Keeper())
        self.assertEqual(len(refused), len(kept))
        with self.assertRaises(RuntimeError):
            kept[0][0].nodes
        with self.assertRaises(RuntimeError):
            kept[0][1].devices


class TestLoad(unittest.TestCase):
    def test_a_bad_scenario_raises_value_error_naming_the_file_and_pointer(self):
        with open(SUPERRES) as f:
            scenario = json.load(f)
        scenario["cluster"]["nodes"]["p4d"]["count"] = 0
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "bad.json")
            with open(path, "w") as f:
                json.dump(scenario, f)
            with self.assertRaises(ValueError) as caught:
                migsim.load(path)
            self.assertEqual(str(caught.exception),
                             path + ":/cluster/nodes/p4d/count: must be >= 1")
            with self.assertRaises(ValueError):
                migsim.run(path)

    def test_a_file_that_is_not_json_raises_value_error(self):
        with self.assertRaises(ValueError) as caught:
            migsim.load(os.path.join(SOURCE, "README.md"))
        self.assertIn("README.md", str(caught.exception))

    def test_a_scenario_is_a_path_or_a_loaded_scenario(self):
        with self.assertRaises(TypeError):
            migsim.run(42)


if __name__ == "__main__":
    unittest.main()
