#!/usr/bin/env python3
"""migsim out of memory (issue 25): a scenario whose JSON takes more memory to parse than
the process may have (RLIMIT_AS lowered in the child) exits 1 with "migsim: out of memory
while parsing <file>", not with std::terminate's abort.

Usage: out_of_memory_test.py --migsim PATH [--sanitized]. Exit 0: passed; 1: failed; 77:
skipped (--sanitized: AddressSanitizer reserves terabytes of address space, so RLIMIT_AS
cannot be lowered under it)."""

import argparse
import os
import resource
import subprocess
import sys
import tempfile

LIMIT = 300 << 20  # bytes of address space: migsim itself needs a few tens of MiB


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--migsim", required=True)
    parser.add_argument("--sanitized", action="store_true")
    args = parser.parse_args()
    if args.sanitized:
        print("skipped: RLIMIT_AS does not work under AddressSanitizer")
        return 77
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "huge.json")
        # 12 million empty arrays: 36 MB of text, well over 300 MiB once parsed.
        with open(path, "w") as f:
            f.write('{"name": "huge", "x": [' + ",".join(["[]"] * 12_000_000) + "]}")
        done = subprocess.run(
            [args.migsim, "run", path, "--quiet"], capture_output=True, text=True, timeout=300,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT)))
        expected = f"migsim: out of memory while parsing {path}\n"
        if done.returncode != 1 or done.stderr != expected or done.stdout:
            print(f"expected exit 1 and {expected!r} on stderr alone; got exit "
                  f"{done.returncode}, stderr {done.stderr[:500]!r}, stdout {done.stdout[:200]!r}")
            return 1
    print("passed: exit 1, " + expected.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
