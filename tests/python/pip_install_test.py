#!/usr/bin/env python3
"""`pip install .` from the checkout (README "Python"), as a user does it: in a fresh
virtual environment (`python3 -m venv`, nothing else in it), with no package index and no
pip configuration, the module installs; imported from another directory, it is the
installed one, reports the project's version and gives the metrics the module built by
CMake gives; `pip uninstall` removes it. The environment is removed afterwards.

Usage: pip_install_test.py --source DIR --reference DIR [--python PATH]. --reference is the
directory of the module CMake built (build/python), whose results the installed one must
equal. Exit 0: passed; 1: failed; 77: skipped (no venv module: Debian's python3-venv).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SCENARIO = "scenarios/56-superres.json"
VARIANT = "mig-1g.5gb"
# Run from another directory: the module's version, where it was loaded from, pip's
# version of it and the metrics of one scenario, as JSON.
PROBE = """
import importlib.metadata, json, sys, migsim
try:
    installed = importlib.metadata.version("migsim")
except importlib.metadata.PackageNotFoundError:  # CMake's module: not installed by pip
    installed = None
r = migsim.run(sys.argv[1], variant=sys.argv[2])
print(json.dumps({"file": migsim.__file__, "version": migsim.__version__,
                  "installed": installed, "metrics": r["metrics"]}, sort_keys=True))
"""


def clean_environment():
    """The environment without what would bring in another module or another package
    source: PYTHONPATH, pip's configuration and index settings; no index at all."""
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONPATH" and not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def run(command, **kwargs):
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def probe(python, cwd, env, scenario):
    """PROBE's answer, run by python in cwd."""
    print(f"$ cd {cwd} && {python} -c PROBE {scenario} {VARIANT}", flush=True)
    done = subprocess.run([python, "-c", PROBE, scenario, VARIANT], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the probe failed (exit {done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def check(args, scratch):
    venv = os.path.join(scratch, "venv")
    elsewhere = os.path.join(scratch, "elsewhere")
    os.mkdir(elsewhere)
    run([args.python, "-m", "venv", venv])
    python = os.path.join(venv, "bin", "python")
    env = clean_environment()
    start = time.monotonic()
    run([python, "-m", "pip", "install", "."], cwd=args.source, env=env)  # the README's command
    print(f"pip install: {time.monotonic() - start:.0f} s", flush=True)

    scenario = os.path.join(args.source, SCENARIO)
    installed = probe(python, elsewhere, env, scenario)
    reference = probe(args.python, elsewhere, dict(env, PYTHONPATH=args.reference), scenario)
    failures = []
    if not os.path.realpath(installed["file"]).startswith(os.path.realpath(venv) + os.sep):
        failures.append(f"migsim came from {installed['file']}, not from the venv {venv}")
    if installed["version"] != installed["installed"] or installed["version"] != reference["version"]:
        failures.append(f"versions differ: migsim.__version__ {installed['version']}, pip's "
                        f"{installed['installed']}, CMake's module {reference['version']}")
    if installed["metrics"] != reference["metrics"]:
        failures.append(f"metrics differ from CMake's module:\n{installed['metrics']}\n"
                        f"{reference['metrics']}")
    print(f"migsim {installed['version']} from {installed['file']}: makespan_s "
          f"{installed['metrics'].get('makespan_s')}")

    run([python, "-m", "pip", "uninstall", "--yes", "migsim"], env=env)
    gone = subprocess.run([python, "-c", "import migsim"], cwd=elsewhere, env=env,
                          capture_output=True, text=True)
    if gone.returncode == 0:
        failures.append("migsim still imports after pip uninstall")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    # Debian splits venv's pip bootstrap (ensurepip) into python3-venv.
    has_venv = subprocess.run([args.python, "-c", "import ensurepip, venv"],
                              capture_output=True, check=False).returncode == 0
    if not has_venv:
        print(f"skipped: {args.python} cannot make a virtual environment (install python3-venv)")
        return 77
    scratch = tempfile.mkdtemp(prefix="migsim-pip-test-")
    try:
        return check(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
