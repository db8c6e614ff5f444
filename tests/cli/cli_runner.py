"""What the command-line test scripts share: the seed of their random inputs, running a program with
its exit code checked, and running a script's tests to a summary and an exit code."""
import os
import random
import subprocess
import sys
import time
import traceback


class Skipped(Exception):
    """A test that cannot run here; the message says why."""


def seed():
    """SIMJOIN_TEST_SEED where set (to replay a run), else a fresh seed."""
    return int(os.environ.get("SIMJOIN_TEST_SEED", random.SystemRandom().randrange(2**31)))


def run(program, *args, expect=0, timeout=300, **options):
    """Runs `program` with `args` (each passed through str), its output captured as text, `options` (env,
    preexec_fn) passed to subprocess.run; fails naming the command and showing its output unless it exits
    with `expect`."""
    result = subprocess.run([program, *map(str, args)], capture_output=True, text=True, timeout=timeout, **options)
    assert result.returncode == expect, (
        f"{os.path.basename(program)} {' '.join(map(str, args))}: exit {result.returncode}, expected {expect}\n"
        f"{result.stdout}\n{result.stderr}")
    return result


def tests_in(namespace):
    """A script's tests, by name: the functions of `namespace` (its globals()) named test_*, in the order
    the script defines them."""
    return {name: value for name, value in namespace.items() if name.startswith("test_") and callable(value)}


def run_tests(tests, before_summary=None):
    """Runs every test, each to the end (a failure is reported, not raised), printing PASS (with its
    seconds), FAIL (with the traceback) or SKIPPED (with the reason), then calls `before_summary` where
    given, prints 'N passed, N failed, N skipped' and exits: 1 on any failure, 77 (ctest's
    SKIP_RETURN_CODE) when every test was skipped, else 0."""
    passed = failed = skipped = 0
    for test in tests:
        start = time.monotonic()
        try:
            test()
            passed += 1
            print(f"PASS {test.__name__} ({time.monotonic() - start:.1f} s)")
        except Skipped as reason:
            skipped += 1
            print(f"SKIPPED {test.__name__}: {reason}")
        except Exception:  # report every failing test, not only the first
            failed += 1
            print(f"FAIL {test.__name__}\n{traceback.format_exc()}")
    if before_summary:
        before_summary()
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed else 77 if tests and skipped == len(tests) else 0)
