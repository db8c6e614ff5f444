"""Bad input and parameters raise clear errors, with the command line's messages."""
import subprocess
import sys

import numpy as np
import pytest

import simjoin
from conftest import ENGINES

POINTS = np.random.default_rng(7).uniform(size=(50, 3))


def with_value(row, column, value):
    points = POINTS.copy()
    points[row, column] = value
    return points


@pytest.mark.parametrize("call, error, message", [
    (lambda: simjoin.join(with_value(3, 1, np.nan), 0.1), ValueError, "X: point 3, dimension 1 is NaN"),
    (lambda: simjoin.join(POINTS, 0.1, with_value(4, 2, np.inf)), ValueError,
     "Y: point 4, dimension 2 is infinite"),
    (lambda: simjoin.join(POINTS[:, 0], 0.1), ValueError, r"X must be a 2-D array .* shape is \(50,\)"),
    (lambda: simjoin.join(POINTS.reshape(5, 10, 3), 0.1), ValueError, r"shape is \(5, 10, 3\)"),
    (lambda: simjoin.join(np.zeros((5, 0)), 0.1), ValueError, "0 dimensions"),
    (lambda: simjoin.join(POINTS.astype(np.int64), 0.1), ValueError,
     "X must hold float32 or float64 values, not int64"),
    (lambda: simjoin.join(POINTS, -0.5), ValueError, "eps: must be a finite number >= 0"),
    (lambda: simjoin.join(POINTS, np.nan), ValueError, "eps: must be a finite number >= 0"),
    (lambda: simjoin.radius_neighbors_graph(POINTS, -1), ValueError, "radius: must be a finite number >= 0"),
    (lambda: simjoin.join(POINTS, 0.1, POINTS[:, :2]), ValueError, "A has 3 dimensions but B has 2"),
    (lambda: simjoin.join(POINTS, 0.1, engine="no-such"), ValueError,
     "unknown engine 'no-such'; known engines: cpu-bruteforce"),
    (lambda: simjoin.join(POINTS, 0.1, k=-1), ValueError, "k must be >= 0"),
    (lambda: simjoin.join(np.zeros((5, 9)), 0.1, engine="cpu-rtree"), ValueError,
     "cpu-rtree supports at most 8 dimensions"),
    (lambda: simjoin.join(POINTS, 0.1, output="list"), ValueError, "output must be one of pairs, csr, count"),
    (lambda: simjoin.join(POINTS, 0.1, distances=True), ValueError, 'distances=True needs output="csr"'),
    (lambda: simjoin.radius_neighbors_graph(POINTS, 0.1, mode="weights"), ValueError, "mode must be one of"),
])
def test_bad_input_raises(call, error, message):
    with pytest.raises(error, match=message):
        call()


# Only GPU engines can be unavailable (no GPU, or a build without CUDA).
UNAVAILABLE = [pytest.param(e["name"], id=e["name"], marks=pytest.mark.gpu) for e in ENGINES if not e["available"]]


@pytest.mark.parametrize("name", UNAVAILABLE or [pytest.param(None, id="none", marks=[
    pytest.mark.gpu, pytest.mark.skip(reason="no engine of this build is unavailable here")])])
def test_unavailable_engine_raises_runtime_error(name):
    with pytest.raises(RuntimeError, match=f"{name} is not available"):
        simjoin.join(POINTS, 0.1, engine=name)


def test_out_of_memory_raises_memory_error():
    # In a child process whose address space is capped at 1 GiB: 1.8e9 pairs cannot be held.
    script = (
        "import resource, numpy, simjoin\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "try:\n"
        "    simjoin.join(numpy.zeros((60000, 2)), 1.0, engine='cpu-nlj')\n"
        "except MemoryError as error:\n"
        "    print('MemoryError:', error)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.stdout.strip() == "MemoryError: out of host memory", result.stdout + result.stderr


@pytest.mark.parametrize("cpu_engine", ["cpu-grid", "cpu-bruteforce"])
def test_negative_device_is_refused_by_cpu_engines_too(cpu_engine):
    with pytest.raises(ValueError, match=r"devices must be GPU ordinals.*got -1"):
        simjoin.join(POINTS, 0.1, engine=cpu_engine, devices=[-1])
