"""migsim.openb (sim/python/openb_binding.cc): the fill experiment of `migsim openb` from
Python, with the CLI's numbers, for built-ins, policy dicts, the example plugin
(policies/plugin/example, built by CTest's plugin_example fixture) and Python policies.

With MIGSIM_OPENB_TRACE=default (and the shared openb data) the same checks run on the
default trace; otherwise on the small data of tests/golden/openb-small."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

import migsim

SOURCE = os.environ.get("MIGSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
MIGSIM = os.environ.get("MIGSIM_BINARY", "")
PLUGIN = os.path.join(SOURCE, "policies", "plugin", "example", "build",
                      "libmigsim_example_policy.so")
TRACE = os.environ.get("MIGSIM_OPENB_TRACE", "small")
DATA = (os.environ.get("MIGSIM_OPENB_DIR") if TRACE == "default"
        else os.path.join(SOURCE, "tests", "golden", "openb-small"))
SEEDS = os.environ.get("MIGSIM_OPENB_SEEDS", "1-3")
TABLES = ["alloc_discrete", "frag_discrete", "frag_ratio_discrete", "failed_pods",
          "final_state"]


class MostFreeGpu:
    """The example plugin (most_free_gpu.c, spread) in Python: for a GPU pod the fitting
    node with the most devices of its resource that have room, the first on ties; for a pod
    without devices the first node that fits; the device plugin picks the devices."""
    name = "most-free-gpu-py"

    def place(self, view, pod):
        resource = next(iter(pod.requests), None)
        best, best_free = None, 0
        for node in view.nodes:
            if not view.fits(pod, node):
                continue
            if resource is None:
                return node.id
            free = sum(1 for d in node.devices
                       if d["resource"] == resource and d["used"] < d["capacity"])
            if best is None or free > best_free:
                best, best_free = node.id, free
        return best


def cell(text):
    """A CSV cell as migsim.openb's tables hold it (pandas.read_csv's reading)."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_tables(out):
    tables = {}
    for name in TABLES:
        with open(os.path.join(out, name + ".csv"), newline="") as f:
            rows = list(csv.reader(f))
        tables[name] = {h: [cell(r[i]) for r in rows[1:]] for i, h in enumerate(rows[0])}
    return tables


def run_cli(*flags):
    """`migsim openb` with `flags` on the test's trace and seeds: its tables."""
    # Without the sanitizer build's LD_PRELOAD, which an ASan-linked binary refuses.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([MIGSIM, "openb", "--data", DATA, "--trace", TRACE, "--seeds", SEEDS,
                        "-q", "--out", out, *flags], check=True, stdout=subprocess.DEVNULL,
                       env=env)
        return read_tables(out)


def relabel(tables, old, new):
    for table in tables.values():
        table["sc_policy"] = [new if p == old else p for p in table["sc_policy"]]
    return tables


class OpenbFromPython(unittest.TestCase):
    def openb(self, policies, **kw):
        return migsim.openb(traces=[TRACE], policies=policies, seeds=SEEDS, data=DATA, **kw)

    def assert_same_tables(self, python, cli):
        for name in TABLES:
            self.assertEqual(python[name], cli[name], name)

    def test_built_ins_give_the_numbers_of_the_cli(self):
        python = self.openb(["fgd", "first-fit"])
        self.assert_same_tables(python, run_cli("--policy", "fgd", "--policy", "first-fit"))
        self.assertEqual(len(python["runs"]["seed"]), len(python["alloc_discrete"]["seed"]))

    @unittest.skipUnless(os.path.exists(PLUGIN), "the example plugin is not built")
    def test_the_example_plugin_and_a_python_policy_deciding_alike_give_the_cli_numbers(self):
        with tempfile.TemporaryDirectory() as d:
            policy_file = os.path.join(d, "example.json")
            with open(policy_file, "w") as f:
                json.dump({"library": PLUGIN}, f)
            cli = run_cli("--policy-file", policy_file)
        python = self.openb([{"library": PLUGIN}, MostFreeGpu()])
        both = {name: {col: values[:len(values) // 2] for col, values in table.items()}
                for name, table in python.items() if name in TABLES}
        self.assert_same_tables(both, cli)
        for name in TABLES[:3]:  # the curves of the Python policy equal the plugin's
            table = python[name]
            half = len(table["seed"]) // 2
            for col, values in table.items():
                if col != "sc_policy":
                    self.assertEqual(values[:half], values[half:], (name, col))
        self.assertEqual(set(python["alloc_discrete"]["sc_policy"]),
                         {"example-spread", "most-free-gpu-py"})
        self.assertEqual(python["runs"]["answers_refused"], [0] * len(python["runs"]["seed"]))


class OpenbArguments(unittest.TestCase):
    def test_seeds_as_a_range_are_the_seeds_as_text(self):
        a = migsim.openb(traces="small", policies="best-fit-share", seeds=range(1, 3),
                         data=os.path.join(SOURCE, "tests", "golden", "openb-small"))
        b = migsim.openb(traces="small", policies="best-fit-share", seeds="1-2",
                         data=os.path.join(SOURCE, "tests", "golden", "openb-small"))
        self.assertEqual(a, b)
        self.assertEqual(a["runs"]["seed"], [1, 2])

    def test_bad_policies_and_seeds_raise_value_errors_naming_them(self):
        small = os.path.join(SOURCE, "tests", "golden", "openb-small")
        with self.assertRaisesRegex(ValueError, r"policies\[1\]:/params/x: policy 'fgd' takes no"):
            migsim.openb(traces="small", policies=["fgd", {"name": "fgd", "params": {"x": 1}}],
                         seeds="1", data=small)
        with self.assertRaisesRegex(ValueError, "two policies are labelled 'fgd'"):
            migsim.openb(traces="small", policies=["fgd", {"name": "fgd"}], seeds="1", data=small)
        with self.assertRaisesRegex(ValueError, "seeds '5-1': the range 5-1 is empty"):
            migsim.openb(traces="small", policies="fgd", seeds="5-1", data=small)
        with self.assertRaisesRegex(ValueError, "no trace 'nosuch'"):
            migsim.openb(traces="nosuch", policies="fgd", seeds="1", data=small)

    def test_a_python_policy_that_raises_raises_from_openb(self):
        class Broken:
            def place(self, view, pod):
                raise KeyError("broken policy")
        with self.assertRaisesRegex(KeyError, "broken policy"):
            migsim.openb(traces="small", policies=[Broken()], seeds="1",
                         data=os.path.join(SOURCE, "tests", "golden", "openb-small"))


if __name__ == "__main__":
    sys.exit(unittest.main())
