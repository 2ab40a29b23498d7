"""What the CLI's studies and tools give, from Python (sim/python/study_bindings.h): sweep,
plan, validate and import_cluster return the numbers of `migsim sweep`, `plan`, `validate`
and `import` for the same input and seeds, as tables pandas takes in one call."""
import csv
import io
import json
import os
import subprocess
import tempfile
import unittest

import migsim
from test_run_control import LONG, assert_ctrl_c_stops

SOURCE = os.environ.get("MIGSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCENARIOS = os.path.join(SOURCE, "scenarios")
SWEEP = os.path.join(SCENARIOS, "sweeps", "superres-nodes.json")
PLAN = os.path.join(SCENARIOS, "plans", "capacity-inference-mix.plan.json")
SUPERRES = os.path.join(SCENARIOS, "56-superres.json")
CAPACITY = os.path.join(SCENARIOS, "capacity-inference-mix.json")
TELEMETRY = os.path.join(SCENARIOS, "telemetry")
# The migsim executable (tests/CMakeLists.txt sets it).
MIGSIM = os.environ.get("MIGSIM_BINARY", "")


def cli(*args, cwd=None):
    """Runs the migsim binary (without the sanitizer build's LD_PRELOAD, which an ASan-linked
    binary refuses); returns the completed process."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    return subprocess.run([MIGSIM, *args], capture_output=True, text=True, env=env, cwd=cwd)


def read_csv(path, skip_stamp=False):
    """The CSV's header and rows of fields, as written."""
    with open(path, newline="") as f:
        text = f.read()
    if skip_stamp:
        text = text.split("\n", 1)[1]
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def write_json(directory, name, document):
    """Writes `document` as JSON to directory/name; returns the path."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def edited(path, edit):
    """The JSON document at `path`, after edit(document)."""
    with open(path) as f:
        document = json.load(f)
    edit(document)
    return document


class TableAssertions(unittest.TestCase):
    def assertTableIsTheCsv(self, table, path, json_columns=(), text_columns=(),
                            skip_stamp=False):
        """Every cell of the CSV equals the table's: None for an empty field, the decoded
        JSON of a JSON column, the text of a text column, else the number the field writes
        (parsed as a float at the CSV's precision; ints stay ints)."""
        header, rows = read_csv(path, skip_stamp)
        self.assertEqual(list(table), header)
        lengths = {len(column) for column in table.values()}
        self.assertEqual(lengths, {len(rows)})
        self.assertGreater(len(rows), 0)
        for r, row in enumerate(rows):
            for name, field in zip(header, row):
                value = table[name][r]
                where = "%s row %d column %s" % (os.path.basename(path), r, name)
                if name in text_columns:
                    self.assertEqual(value, field, where)
                elif field == "":
                    self.assertIsNone(value, where)
                elif name in json_columns:
                    self.assertEqual(value, json.loads(field), where)
                elif field in ("true", "false"):
                    self.assertIs(value, field == "true", where)
                else:
                    self.assertNotIsInstance(value, (str, bool), where)
                    self.assertEqual(value, float(field), where)
                    if isinstance(value, int):
                        self.assertEqual(str(value), field, where)

    def setUp(self):
        self.assertTrue(os.path.exists(MIGSIM), "MIGSIM_BINARY names no file: " + MIGSIM)

    def assertSameErrorAsTheCli(self, call, *args):
        """call() raises ValueError with the message the CLI (its `args`) prints before
        exit 2; returns that message."""
        with self.assertRaises(ValueError) as caught:
            call()
        done = cli(*args)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr, "migsim: " + str(caught.exception) + "\n")
        return str(caught.exception)


class TestSweep(TableAssertions):
    POINTERS = ("/cluster/nodes/p4d/count", "/job_classes/super-resolution/failure_probability",
                "/seed")

    def test_a_sweep_gives_every_cell_of_the_clis_sweep_csv(self):
        table = migsim.sweep(SWEEP)
        with tempfile.TemporaryDirectory() as out:
            self.assertEqual(cli("sweep", SWEEP, "--out", out, "--quiet").returncode, 0)
            self.assertTableIsTheCsv(table, os.path.join(out, "sweep.csv"),
                                     json_columns=self.POINTERS, text_columns=("variant",))
        self.assertEqual(len(table["variant"]), 24)
        self.assertIsInstance(table["point"][0], int)
        self.assertIsInstance(table["makespan_s"][0], float)
        self.assertEqual(table["/cluster/nodes/p4d/count"][:2], [1, 1])

    def test_a_shard_gives_the_rows_of_the_clis_shard_on_any_number_of_threads(self):
        one = migsim.sweep(SWEEP, jobs=1, shard="1/3")
        self.assertEqual(one, migsim.sweep(SWEEP, jobs=2, shard="1/3"))
        self.assertEqual(set(one["point"]), {1, 4, 7, 10})
        with tempfile.TemporaryDirectory() as out:
            done = cli("sweep", SWEEP, "--shard", "1/3", "--out", out, "--quiet")
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertTableIsTheCsv(one, os.path.join(out, "sweep-shard-1-of-3.csv"),
                                     json_columns=self.POINTERS, text_columns=("variant",),
                                     skip_stamp=True)

    def test_a_bad_sweep_file_is_a_value_error_with_the_clis_message(self):
        def edit(sweep):
            sweep["scenario"] = SUPERRES
            sweep["axes"]["/cluster/nodes/p4d/count"] = [1, "two"]
        with tempfile.TemporaryDirectory() as directory:
            path = write_json(directory, "bad.json", edited(SWEEP, edit))
            message = self.assertSameErrorAsTheCli(lambda: migsim.sweep(path), "sweep", path)
            self.assertIn(path, message)
            self.assertIn("/cluster/nodes/p4d/count", message)
        with self.assertRaises(ValueError):
            migsim.sweep(SWEEP, shard="3/3")
        with self.assertRaises(ValueError):
            migsim.sweep(SWEEP, jobs=-1)


class TestPlan(TableAssertions):
    def test_a_plan_gives_every_cell_of_plan_csv_and_evidence_csv_and_the_clis_table(self):
        result = migsim.plan(PLAN, jobs=2)
        with tempfile.TemporaryDirectory() as out:
            done = cli("plan", PLAN, "--out", out, "--quiet")
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertTableIsTheCsv(result["configurations"], os.path.join(out, "plan.csv"),
                                     text_columns=("configuration", "node_type", "note", "pools"))
            self.assertTableIsTheCsv(result["evidence"], os.path.join(out, "evidence.csv"),
                                     text_columns=("configuration", "why_not"))
        self.assertEqual(result["table"], done.stdout)
        self.assertTrue(done.stdout.endswith(result["recommendation_text"]))
        best = result["recommendation"]
        self.assertEqual(best["configuration"], result["configurations"]["configuration"][0])
        self.assertIn("recommendation: %s with %d " % (best["configuration"], best["nodes"]),
                      result["recommendation_text"])
        self.assertIsInstance(result["evidence"]["meets"][0], bool)

    def test_a_bad_plan_file_is_a_value_error_with_the_clis_message(self):
        def edit(plan):
            plan["scenario"] = CAPACITY
            plan["max_nodes"] = 0
        with tempfile.TemporaryDirectory() as directory:
            path = write_json(directory, "bad.plan.json", edited(PLAN, edit))
            message = self.assertSameErrorAsTheCli(lambda: migsim.plan(path), "plan", path)
            self.assertIn(path + ":/max_nodes", message)


class TestValidate(TableAssertions):
    def test_validate_returns_the_facts_migsim_validate_prints(self):
        facts = migsim.validate(SUPERRES)
        done = cli("validate", SUPERRES)
        self.assertEqual(done.returncode, 0)
        text = "%s: valid. %s\n" % (facts["path"], facts["name"])
        text += "".join("\n" + v["text"] for v in facts["variants"])
        self.assertEqual(text, done.stdout)
        mig = facts["variants"][0]
        self.assertEqual([v["name"] for v in facts["variants"]], ["mig-1g.5gb", "whole-gpu"])
        self.assertEqual(mig["nodes"][0]["count"], 1)
        self.assertEqual(mig["nodes"][0]["type"], "p4d.24xlarge")
        self.assertIn("nvidia.com/mig-1g.5gb: 56", mig["nodes"][0]["advertised"])
        self.assertIsNone(mig["provisioner"])

    def test_every_example_scenario_validates_as_the_cli_prints_it(self):
        for name in ("capacity-inference-mix.json", "arrivals-example.json",
                     "mig-strategies.json"):
            path = os.path.join(SCENARIOS, name)
            facts = migsim.validate(path)
            done = cli("validate", path)
            text = "%s: valid. %s\n" % (facts["path"], facts["name"])
            if facts["warnings"]:
                text += "\nmanifest fields migsim does not model:\n"
                text += "".join("  warning: %s\n" % w for w in facts["warnings"])
            text += "".join("\n" + v["text"] for v in facts["variants"])
            self.assertEqual(text, done.stdout, name)

    def test_a_bad_scenario_is_a_value_error_naming_the_file_and_pointer(self):
        def edit(scenario):
            scenario["cluster"]["nodes"]["p4d"]["count"] = 0
        with tempfile.TemporaryDirectory() as directory:
            path = write_json(directory, "bad.json", edited(SUPERRES, edit))
            message = self.assertSameErrorAsTheCli(lambda: migsim.validate(path), "validate",
                                                   path)
            self.assertEqual(message, path + ":/cluster/nodes/p4d/count: must be >= 1")


class TestImport(TableAssertions):
    def test_import_gives_the_scenario_and_report_of_migsim_import(self):
        nodes, pods = (os.path.join(TELEMETRY, n) for n in ("nodes.json", "pods.json"))
        jobs = os.path.join(TELEMETRY, "jobs.json")
        for extra in ([], ["--jobs", jobs, "--telemetry", TELEMETRY]):
            imported = migsim.import_cluster(
                nodes=nodes, pods=pods, jobs=jobs if extra else None,
                telemetry=TELEMETRY if extra else None)
            with tempfile.TemporaryDirectory() as out:
                path = os.path.join(out, "s.json")
                done = cli("import", "--nodes", nodes, "--pods", pods, "--out", path, *extra)
                self.assertEqual(done.returncode, 0, done.stderr)
                with open(path) as f:
                    text = f.read()
            self.assertEqual(imported["json"], text)
            self.assertEqual(imported["scenario"], json.loads(text))
            report = ["warning: " + w for w in imported["warnings"]]
            report += ["import: " + n for n in imported["notices"]]
            self.assertEqual(done.stderr.splitlines(), report)
            self.assertEqual(any(n.startswith("telemetry: ") for n in imported["notices"]),
                             bool(extra))

    def test_a_bad_snapshot_is_a_value_error_with_the_clis_message(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "nodes.json")
            with open(path, "w") as f:
                f.write('{"kind": "List", "items": [')  # cut short
            pods = os.path.join(TELEMETRY, "pods.json")
            message = self.assertSameErrorAsTheCli(
                lambda: migsim.import_cluster(nodes=path, pods=pods),
                "import", "--nodes", path, "--pods", pods)
            self.assertIn(path + ":line 1, column 1: malformed YAML", message)
            with self.assertRaises(ValueError) as caught:
                migsim.import_cluster(nodes=path, pods=pods, telemetry=directory)
            self.assertIn(directory, str(caught.exception))
        with self.assertRaises(ValueError):
            migsim.import_cluster(nodes=path, pods=pods, run_s=-1)


class TestRunTable(TableAssertions):
    def test_the_run_table_has_one_row_per_variant_with_its_metrics(self):
        results = migsim.run(CAPACITY)
        table = migsim.run_table(results)
        self.assertEqual(table["name"], [r["name"] for r in results])
        self.assertEqual({len(c) for c in table.values()}, {len(results)})
        for i, r in enumerate(results):
            self.assertEqual(table["makespan_s"][i], r["metrics"]["makespan_s"])
            self.assertEqual(table["queueing_latency_s.p95"][i],
                             r["metrics"]["queueing_latency_s"]["p95"])
            self.assertEqual(table["pods.completed"][i], r["metrics"]["pods"]["completed"])
            self.assertEqual(table["energy.kwh"][i], r["energy"]["kwh"])
            self.assertEqual(table["rejected_decisions"][i], r["rejected_decisions"])
        self.assertNotIn("pods.name", table)
        one = migsim.run_table(results[0])
        self.assertEqual({k: v[0] for k, v in one.items()},
                         {k: v[0] for k, v in table.items() if v[0] is not None or k in one})

    def test_the_run_table_holds_the_clis_json_metrics(self):
        done = cli("run", SUPERRES, "--json", "-q")
        self.assertEqual(done.returncode, 0, done.stderr)
        variants = json.loads(done.stdout)["variants"]
        table = migsim.run_table(migsim.run(SUPERRES))
        self.assertEqual(table["name"], [v["name"] for v in variants])
        for i, v in enumerate(variants):
            self.assertAlmostEqual(table["makespan_s"][i], v["metrics"]["makespan_s"], places=6)
            self.assertAlmostEqual(table["queueing_latency_s.p95"][i],
                                   v["metrics"]["queueing_latency_s"]["p95"], places=6)
            self.assertEqual(table["pods.completed"][i], v["metrics"]["pods"]["completed"])


class TestInterrupt(unittest.TestCase):
    def test_ctrl_c_stops_a_sweep_between_events(self):
        with tempfile.TemporaryDirectory() as directory:
            path = write_json(directory, "long-sweep.json",
                              {"name": "long", "description": "", "scenario": LONG,
                               "axes": {"/job_classes/short/run_s": [1, 2]}})
            assert_ctrl_c_stops(self, lambda: migsim.sweep(path, jobs=1))

    def test_ctrl_c_stops_a_plan_between_events(self):
        with tempfile.TemporaryDirectory() as directory:
            write_json(directory, "long.json", LONG)
            path = write_json(directory, "long.plan.json", {
                "name": "long", "description": "", "scenario": "long.json", "pool": "a",
                "configurations": {"p4d": {"type": "p4d.24xlarge"}},
                "slo": {"max_pending": 0}, "max_nodes": 1})
            assert_ctrl_c_stops(self, lambda: migsim.plan(path))


if __name__ == "__main__":
    unittest.main()
