"""What stops a migsim.run made from Python (sim/python/interrupt.h): Ctrl-C between events, a
policy that raised, and a policy that calls migsim.run itself."""
import json
import os
import signal
import tempfile
import threading
import time
import unittest

import migsim

SOURCE = os.environ.get("MIGSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SUPERRES = os.path.join(SOURCE, "scenarios", "56-superres.json")

# Four Jobs of a million one-second pods on one 8-GPU node: seconds of work in C++ (far
# longer under sanitizers), with nothing for Python to do meanwhile.
LONG = {
    "name": "long", "description": "a run far longer than a test waits for",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"short": {"run_s": 1}},
    "workloads": {"j%d" % i: {"kind": "Job", "completions": 1000000, "parallelism": 8,
                              "template": {"job_class": "short",
                                           "resources": {"nvidia.com/gpu": 1}}}
                  for i in range(4)},
}


class LongScenario:
    def __enter__(self):
        self.directory = tempfile.TemporaryDirectory()
        path = os.path.join(self.directory.name, "long.json")
        with open(path, "w") as f:
            json.dump(LONG, f)
        return path

    def __exit__(self, *exc):
        self.directory.cleanup()


def assert_ctrl_c_stops(test, call):
    """call() raises KeyboardInterrupt less than a second after a SIGINT sent 0.3 s into it
    from another thread, as Ctrl-C would: at once, not after the millions of pods a long
    run still had to go."""
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)
    timer = threading.Timer(0.3, interrupt)
    timer.start()
    try:
        with test.assertRaises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    test.assertEqual(len(sent), 1)
    test.assertLess(time.monotonic() - sent[0], 1.0)


class TestInterrupt(unittest.TestCase):
    def test_ctrl_c_stops_a_built_in_policys_run_between_events(self):
        # The run holds no GIL.
        with LongScenario() as path:
            assert_ctrl_c_stops(self, lambda: migsim.run(path))

    def test_ctrl_c_inside_a_python_policy_stops_the_run(self):
        calls = []

        class Interrupted:
            def place(self, view, pod):
                calls.append(pod.id)
                if len(calls) == 100:
                    os.kill(os.getpid(), signal.SIGINT)
                for node in view.nodes:
                    if view.fits(pod, node):
                        return node.id
                return None
        with LongScenario() as path:
            started = time.monotonic()
            with self.assertRaises(KeyboardInterrupt):
                migsim.run(path, policy=Interrupted())
            self.assertLess(time.monotonic() - started, 5.0)
        # The handler ran in the 100th call or right after it; the policy is not called again.
        self.assertLessEqual(len(calls), 101)

    def test_the_module_runs_again_after_an_interrupt(self):
        self.assertEqual(migsim.run(SUPERRES, variant="whole-gpu")["metrics"]["pods"]["completed"],
                         57)


class TestReentry(unittest.TestCase):
    def test_a_policy_that_calls_migsim_run_gets_a_runtime_error(self):
        class Recursive:
            def place(self, view, pod):
                migsim.run(SUPERRES, variant="whole-gpu")
                return None
        with self.assertRaises(RuntimeError) as caught:
            migsim.run(SUPERRES, variant="whole-gpu", policy=Recursive())
        self.assertIn("migsim.run called from inside a policy callback", str(caught.exception))
        # The module runs as before afterwards.
        self.assertEqual(migsim.run(SUPERRES, variant="whole-gpu")["rejected_decisions"], 0)


class TestRejections(unittest.TestCase):
    def test_a_policys_rejected_answers_are_counted_with_the_first_ones_reason(self):
        class Nowhere:
            name = "nowhere"

            def place(self, view, pod):
                return 999
        result = migsim.run(SUPERRES, variant="whole-gpu", policy=Nowhere())
        self.assertGreater(result["rejected_decisions"], 0)
        self.assertEqual(result["policy_decisions"], result["rejected_decisions"])
        self.assertRegex(result["first_rejection"],
                         r"^at 0 s, pod .+: node 999 does not exist \(the cluster has \d+ nodes?\)$")
        clean = migsim.run(SUPERRES, variant="whole-gpu")
        self.assertEqual(clean["rejected_decisions"], 0)
        self.assertIsNone(clean["first_rejection"])
        self.assertGreater(clean["policy_decisions"], 0)


class TestBudget(unittest.TestCase):
    HUNDRED_PODS = {
        "name": "t", "description": "a hundred bare pods at once",
        "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
        "job_classes": {"train": {"run_s": 10}},
        "workloads": {"w": {"kind": "Pod", "count": 100,
                            "template": {"job_class": "train",
                                         "resources": {"nvidia.com/gpu": 1}}}},
    }

    def test_a_run_past_its_budget_raises_instead_of_returning_partial_results(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "s.json")
            with open(path, "w") as f:
                json.dump(self.HUNDRED_PODS, f)
            try:
                migsim.set_limit("run-pods", 50)
                with self.assertRaises(ValueError) as caught:
                    migsim.run(path)
                self.assertIn("more than 50 pods created", str(caught.exception))
                self.assertIn("--limit run-pods=N", str(caught.exception))
            finally:
                migsim.set_limit("run-pods", 20000000)
            self.assertEqual(migsim.run(path)[0]["name"], "base")

    def test_an_unknown_limit_is_a_value_error_naming_the_limits(self):
        with self.assertRaises(ValueError) as caught:
            migsim.set_limit("memory", 5)
        self.assertIn("run-pods", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
