"""simjoin.engines() and the statistics of the last run."""
import os
import subprocess
import sys

import pytest

import simjoin
from conftest import ENGINES


def test_engines_are_the_command_lines():
    cli = os.environ.get("SIMJOIN_CLI")
    if not cli:
        pytest.skip("SIMJOIN_CLI (the simjoin executable) is not set")
    listing = subprocess.run([cli, "engines"], check=True, capture_output=True, text=True).stdout.splitlines()
    names = [line.split()[0] for line in listing[1:] if line.strip() and not line.lstrip().startswith("why:")]
    assert [engine["name"] for engine in ENGINES] == names


def test_openmp_threads_sleep_unless_the_user_chose():
    """Importing simjoin sets OMP_WAIT_POLICY=passive before libgomp loads, and keeps a user's value."""
    show = "import os, simjoin; print(os.environ['OMP_WAIT_POLICY'])"
    for chosen, expected in ((None, "passive"), ("active", "active")):
        env = {key: value for key, value in os.environ.items() if key != "OMP_WAIT_POLICY"}
        if chosen:
            env["OMP_WAIT_POLICY"] = chosen
        shown = subprocess.run([sys.executable, "-c", show], env=env, check=True, capture_output=True, text=True)
        assert shown.stdout.strip() == expected


def test_engine_descriptions():
    names = [engine["name"] for engine in ENGINES]
    assert {"cpu-bruteforce", "cpu-grid", "auto"} <= set(names)
    for engine in ENGINES:
        assert engine["device"] in ("cpu", "gpu")
        assert engine["available"] or engine["reason"]
        assert engine["description"]


def test_stats_of_the_last_join(rng):
    X = rng.uniform(size=(5000, 3))
    Y = rng.uniform(size=(3000, 3))
    pairs = simjoin.join(X, 0.05, Y, engine="cpu-grid")
    stats = simjoin.last_stats()
    assert isinstance(stats, simjoin.Stats)
    assert (stats.engine, stats.n, stats.n_b, stats.d, stats.eps) == ("cpu-grid", 5000, 3000, 3, 0.05)
    assert stats.pairs == len(pairs)
    assert "join" in stats.phases and stats.seconds_total > 0
    assert 0 < stats.compared_pairs and 0 < stats.compared_ratio < 1
    assert "cpu-grid" in repr(stats)

    simjoin.join(X, 0.05, engine="auto", output="count")
    assert simjoin.last_stats().notes[0].startswith("auto chose ")
