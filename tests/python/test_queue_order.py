"""A Python policy's queue order, less(a, b) (sim/python/python_policy.h), against the example
plugin's (policies/plugin/example/smallest_first.c): the same runs both ways."""
import json
import os
import tempfile
import unittest

import migsim
from test_migsim import FirstFit

SOURCE = os.environ.get("MIGSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLE = os.path.join(SOURCE, "policies", "plugin", "example", "smallest_first.json")
# Where the tests' build of the example plugins is (tests/CMakeLists.txt sets it).
PLUGIN_DIR = os.environ.get("MIGSIM_PLUGIN_DIR", "")


def sevenths(pod):
    """smallest_first.c's size of a pod: GPU in sevenths."""
    total = 0
    for resource, count in pod.requests.items():
        if resource == "nvidia.com/gpu":
            total += 7 * count
        elif resource.startswith("nvidia.com/mig-"):
            total += int(resource[len("nvidia.com/mig-"):].split("g")[0]) * count
    return total


class SmallestFirst(FirstFit):
    """smallest_first.c in Python: first fit, and a queue order by size, then age."""
    name = "py-smallest-first"

    def less(self, a, b):
        if sevenths(a) != sevenths(b):
            return sevenths(a) < sevenths(b)
        if a.created_s != b.created_s:
            return a.created_s < b.created_s
        return a.id < b.id


@unittest.skipUnless(PLUGIN_DIR, "MIGSIM_PLUGIN_DIR (the tests' plugins) is not set")
class TestQueueOrder(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        with open(EXAMPLE) as f:
            doc = json.load(f)
        doc["policy"]["library"] = os.path.join(PLUGIN_DIR, "libplugin_smallest_first.so")
        cls.path = os.path.join(cls.dir.name, "smallest_first.json")
        with open(cls.path, "w") as f:
            json.dump(doc, f)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def bound(self, result):
        return list(zip(result["pods"]["name"], result["pods"]["bound_s"]))

    def test_the_plugins_order_lets_the_small_pods_pass_the_big_one(self):
        plugin = migsim.run(self.path, variant="smallest-first")
        default = migsim.run(self.path, variant="priority")
        self.assertEqual(plugin["policy"], "smallest-first")
        by_name = dict(self.bound(plugin))
        self.assertEqual(by_name["big"], 1800.0)
        self.assertEqual(dict(self.bound(default))["big"], 600.0)

    def test_a_python_less_gives_the_plugins_run_when_the_scenario_asks_for_the_policys_order(self):
        plugin = migsim.run(self.path, variant="smallest-first")
        python = migsim.run(self.path, variant="smallest-first", policy=SmallestFirst())
        self.assertEqual(python["policy"], "py-smallest-first")
        self.assertEqual(self.bound(python), self.bound(plugin))
        self.assertEqual(python["metrics"], plugin["metrics"])

    def test_queue_order_policy_takes_the_python_order_where_the_scenario_names_another(self):
        plugin = migsim.run(self.path, variant="smallest-first")
        python = migsim.run(self.path, variant="priority", policy=SmallestFirst(),
                            queue_order="policy")
        self.assertEqual(self.bound(python), self.bound(plugin))
        # Without it, the scenario's order (PrioritySort) is used, less or not.
        plain = migsim.run(self.path, variant="priority", policy=SmallestFirst())
        self.assertEqual(dict(self.bound(plain))["big"], 600.0)

    def test_a_policy_without_less_cannot_give_the_queue_order(self):
        with self.assertRaisesRegex(ValueError, "policy 'py-first-fit' supplies none"):
            migsim.run(self.path, variant="smallest-first", policy=FirstFit())
        with self.assertRaisesRegex(ValueError, "policy 'first-fit' supplies none"):
            migsim.run(self.path, variant="smallest-first", policy="first-fit")
        with self.assertRaisesRegex(ValueError, "queue_order='policy'"):
            migsim.run(self.path, variant="priority", policy="first-fit", queue_order="policy")
        with self.assertRaisesRegex(ValueError, "queue_order takes only 'policy'"):
            migsim.run(self.path, variant="priority", policy=SmallestFirst(), queue_order="sjf")

    def test_less_sees_the_pods_facts_and_its_handles_die_with_the_call(self):
        seen = []

        class Looker(SmallestFirst):
            def less(self, a, b):
                seen.append(a)
                self.facts = (a.namespace, a.labels, a.priority, a.run_estimate_s)
                return super().less(a, b)
        looker = Looker()
        migsim.run(self.path, variant="smallest-first", policy=looker)
        self.assertEqual(looker.facts, ("default", {}, 0, 600.0))
        with self.assertRaisesRegex(RuntimeError, "valid only during the call"):
            seen[0].id

    def test_an_exception_in_less_stops_the_decisions_and_comes_out_of_run(self):
        calls = []

        class Broken(SmallestFirst):
            def less(self, a, b):
                calls.append(1)
                raise ZeroDivisionError("less")
        with self.assertRaises(ZeroDivisionError):
            migsim.run(self.path, variant="smallest-first", policy=Broken())
        self.assertEqual(len(calls), 1)  # less is not called again

    def test_less_must_answer_a_bool(self):
        class Silent(SmallestFirst):
            def less(self, a, b):
                return None
        with self.assertRaisesRegex(TypeError, "less\\(\\) must return a bool"):
            migsim.run(self.path, variant="smallest-first", policy=Silent())


if __name__ == "__main__":
    unittest.main()
