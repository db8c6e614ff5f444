"""Fixtures shared by the Python module's tests: a seeded random generator and one test per engine."""
import os
import random

import numpy as np
import pytest

import simjoin

ENGINES = simjoin.engines()


# The GPU-required mode (tests/core/gpu_required.hpp): a GPU test that would skip for want of a GPU fails.
GPU_REQUIRED = os.environ.get("SIMJOIN_REQUIRE_GPU", "0") not in ("", "0")
NO_GPU_REASON = "this build has no GPU engines (no CUDA compiler at configure time)"
NO_GPU_ENGINES = pytest.param(None, id="gpu", marks=[pytest.mark.gpu] + (
    [] if GPU_REQUIRED else [pytest.mark.skip(reason=NO_GPU_REASON)]))


def engine_params(engines):
    """One parameter per engine, GPU engines marked `gpu`; an engine unavailable here is skipped with
    its reason."""
    params = []
    for engine in engines:
        marks = [pytest.mark.gpu] if engine["device"] == "gpu" else []
        if not engine["available"] and not (GPU_REQUIRED and engine["device"] == "gpu"):
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


@pytest.fixture(autouse=True)
def gpu_required(request):
    """Under SIMJOIN_REQUIRE_GPU, fails each test of a GPU engine that is unavailable (or of none)."""
    callspec = getattr(request.node, "callspec", None)
    if not GPU_REQUIRED or callspec is None or "engine" not in callspec.params:
        return
    engine = callspec.params["engine"]
    if engine is None:
        pytest.fail("SIMJOIN_REQUIRE_GPU is set: " + NO_GPU_REASON)
    if engine["device"] == "gpu" and not engine["available"]:
        pytest.fail(f"SIMJOIN_REQUIRE_GPU is set: {engine['name']}: {engine['reason']}")


@pytest.fixture
def rng():
    """Fresh random inputs per test; SIMJOIN_TEST_SEED=N replays a failure (the seed is printed with it)."""
    seed = int(os.environ.get("SIMJOIN_TEST_SEED", random.SystemRandom().randrange(2**31)))
    print(f"SIMJOIN_TEST_SEED={seed}")
    return np.random.default_rng(seed)
