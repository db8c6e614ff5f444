"""Fixtures shared by the Python module's tests: a seeded random generator and one test per engine."""
import os
import random

import numpy as np
import pytest

import simjoin

ENGINES = simjoin.engines()


NO_GPU_ENGINES = pytest.param(None, id="gpu", marks=[pytest.mark.gpu, pytest.mark.skip(
    reason="this build has no GPU engines (no CUDA compiler at configure time)")])


def engine_params(engines):
    """One parameter per engine, GPU engines marked `gpu`; an engine unavailable here is skipped with
    its reason."""
    params = []
    for engine in engines:
        marks = [pytest.mark.gpu] if engine["device"] == "gpu" else []
        if not engine["available"]:
            marks.append(pytest.mark.skip(reason=f"{engine['name']}: {engine['reason']}"))
        params.append(pytest.param(engine, id=engine["name"], marks=marks))
    if not any(engine["device"] == "gpu" for engine in engines):
        params.append(NO_GPU_ENGINES)
    return params


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: a test of a GPU engine (ctest runs them as python.gpu)")


def pytest_generate_tests(metafunc):
    if "engine" in metafunc.fixturenames:
        metafunc.parametrize("engine", engine_params(ENGINES))


@pytest.fixture
def rng():
    """Fresh random inputs per test; SIMJOIN_TEST_SEED=N replays a failure (the seed is printed with it)."""
    seed = int(os.environ.get("SIMJOIN_TEST_SEED", random.SystemRandom().randrange(2**31)))
    print(f"SIMJOIN_TEST_SEED={seed}")
    return np.random.default_rng(seed)
