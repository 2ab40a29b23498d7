"""The migsim Python module (sim/python): loading, running, Python policies."""
import os
import unittest

import migsim

SOURCE = os.environ.get("MIGSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SUPERRES = os.path.join(SOURCE, "scenarios", "56-superres.json")


class FirstFit:
    name = "py-first-fit"

    def place(self, view, pod):
        for node in view.nodes:
            if view.fits(pod, node):
                return node.id
        return None


class MostFreeGpus:
    """Scores a node by its free GPU devices: a Python spread."""
    name = "py-most-free"

    def score(self, view, pod, node):
        return float(sum(d["capacity"] - d["used"] for d in node.devices))


class TestRun(unittest.TestCase):
    def test_a_scenario_runs_with_its_own_policy_and_reports_the_golden_makespan(self):
        results = migsim.run(SUPERRES)
        self.assertEqual([r["name"] for r in results], ["mig-1g.5gb", "whole-gpu"])
        self.assertEqual(results[0]["metrics"]["makespan_s"], 87.0)
        self.assertEqual(results[0]["metrics"]["pods"]["completed"], 57)
        self.assertEqual(results[0]["rejected_decisions"], 0)

    def test_the_pods_table_is_columnar_with_equal_lengths(self):
        pods = migsim.run(SUPERRES, variant="whole-gpu")[0]["pods"]
        lengths = {len(column) for column in pods.values()}
        self.assertEqual(lengths, {57})
        self.assertIn("ended_s", pods)
        try:
            import pandas  # optional: only where Debian's python3-pandas is installed
        except ImportError:
            return
        self.assertEqual(len(pandas.DataFrame(pods)), 57)

    def test_a_python_first_fit_gives_the_built_in_first_fits_metrics(self):
        built_in = migsim.run(SUPERRES)
        python = migsim.run(SUPERRES, policy=FirstFit())
        self.assertEqual(python[0]["policy"], "py-first-fit")
        for a, b in zip(built_in, python):
            self.assertEqual(a["metrics"], b["metrics"])

    def test_a_python_score_spreads_pods_over_nodes(self):
        scenario = migsim.load(SUPERRES)
        result = migsim.run(scenario, variant="mig-1g.5gb", policy=MostFreeGpus())[0]
        self.assertEqual(result["metrics"]["pods"]["completed"], 57)

    def test_a_bad_answer_is_rejected_counted_and_leaves_the_pod_pending(self):
        class Wrong:
            def place(self, view, pod):
                return 999
        result = migsim.run(SUPERRES, variant="whole-gpu", policy=Wrong())[0]
        self.assertGreater(result["rejected_decisions"], 0)
        self.assertEqual(result["metrics"]["pods"]["completed"], 0)

    def test_an_exception_in_the_policy_comes_out_of_run(self):
        class Broken:
            def place(self, view, pod):
                raise KeyError("boom")
        with self.assertRaises(KeyError):
            migsim.run(SUPERRES, policy=Broken())

    def test_a_view_kept_after_its_call_refuses_to_be_read(self):
        kept = []

        class Keeper(FirstFit):
            def place(self, view, pod):
                kept.append(view)
                return super().place(view, pod)
        migsim.run(SUPERRES, variant="whole-gpu", policy=Keeper())
        with self.assertRaises(RuntimeError):
            kept[0].nodes

    def test_view_nodes_is_a_sequence_by_node_id(self):
        seen = []

        class Looker:
            def place(self, view, pod):
                nodes = view.nodes
                seen.append((len(nodes), nodes[0].id, nodes[-1].name, [n.id for n in nodes]))
                return None
        migsim.run(SUPERRES, variant="whole-gpu", policy=Looker())
        self.assertEqual(seen[0], (1, 0, "p4d-0", [0]))

    def test_a_bad_scenario_raises_value_error_naming_the_pointer(self):
        with self.assertRaises(ValueError) as caught:
            migsim.load(os.path.join(SOURCE, "README.md"))
        self.assertIn("README.md", str(caught.exception))
        with self.assertRaises(ValueError):
            migsim.run(SUPERRES, variant="nope")


if __name__ == "__main__":
    unittest.main()
