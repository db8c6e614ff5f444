"""Large results in Python: the memory a join takes above its inputs, as docs/python.md states it (the
pair list at most 1.25 times its bytes, the CSR graph at most 2.5 times), and Ctrl-C while the pairs
are sorted or the graph is built returning within 100 ms (plus the slack of a loaded machine,
SIMJOIN_SIGNAL_SLACK_MS)."""
import os
import random
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import simjoin

# About 1.2e7 pairs: big enough that the phases after the engine take a good part of a second.
N, EPS = 150_000, 0.019
SLACK_MS = float(os.environ.get("SIMJOIN_SIGNAL_SLACK_MS", "100"))

# Measured in a fresh interpreter: the peak resident size (VmHWM, reset before the join) above the
# resident size before it, over the bytes of the result as returned.
MEASURE = """
import sys, numpy as np, simjoin
def status(key):
    return next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith(key))
output = sys.argv[1]
X = np.random.default_rng(0).uniform(size=({n}, 2))
simjoin.join(X[:1000], {eps}, engine="cpu-grid", output=output)
open("/proc/self/clear_refs", "w").write("5")
before = status("VmRSS:")
result = simjoin.join(X, {eps}, engine="cpu-grid", output=output)
peak = status("VmHWM:")
size = result.nbytes if output == "pairs" else result.data.nbytes + result.indices.nbytes + result.indptr.nbytes
print((peak - before) / size)
"""


def memory_factor(output):
    script = MEASURE.format(n=N, eps=EPS)
    result = subprocess.run([sys.executable, "-c", script, output], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    return float(result.stdout)


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's /proc/self/clear_refs")
@pytest.mark.parametrize("output, bound", [("pairs", 1.25), ("csr", 2.5)])
def test_memory_above_the_inputs_is_as_documented(output, bound):
    factor = memory_factor(output)
    print(f"{output}: peak {factor:.2f} x the result's bytes")
    assert factor <= bound, f"output={output!r} took {factor:.2f} x the result's bytes, documented {bound}"


@pytest.fixture(scope="module")
def large_points():
    return np.random.default_rng(1).uniform(size=(N, 2))


@pytest.mark.parametrize("output, phase", [("pairs", "sorting pairs"), ("csr", "neighbour graph")])
def test_ctrl_c_after_the_engine_returns_promptly(large_points, output, phase):
    chance = random.Random(int(os.environ.get("SIMJOIN_TEST_SEED", "0")) or None)
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    def progress(fraction, current):
        if current == phase and not sent and not timers:
            timers.append(threading.Timer(chance.uniform(0, 0.1), interrupt))
            timers[0].start()

    timers = []
    try:
        simjoin.join(large_points, EPS, engine="cpu-grid", output=output, progress=progress)
    except KeyboardInterrupt:
        latency_ms = (time.monotonic() - sent[0]) * 1000
        print(f"{phase}: returned {latency_ms:.0f} ms after Ctrl-C")
        assert latency_ms < 100 + SLACK_MS, f"{phase}: returned {latency_ms:.0f} ms after Ctrl-C"
        return
    finally:
        for timer in timers:
            timer.cancel()
    assert timers, f"the phase {phase!r} was never reported"
    pytest.skip(f"the join finished before the interrupt reached {phase!r}")
