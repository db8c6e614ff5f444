"""Cancellation from Python: Ctrl-C and progress callbacks stop a running join cleanly, the engine then
runs again exactly, and other Python threads run while a join does."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import simjoin
from reference import assert_engine_pairs, self_pairs

# A join of many seconds on the oracle: long enough that any interrupt arrives while it runs.
LONG_JOIN = dict(X=np.random.default_rng(3).uniform(size=(400_000, 3)), eps=0.01, engine="cpu-bruteforce",
                 output="count")


class Stop(Exception):
    pass


def test_sigint_raises_keyboard_interrupt_promptly():
    signal_sent = []

    def interrupt():
        signal_sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            simjoin.join(**LONG_JOIN)
    finally:
        timer.cancel()
    latency = time.monotonic() - signal_sent[0]
    assert latency < 2.0, f"the join returned {latency:.2f} s after Ctrl-C"


def test_progress_reports_rising_fractions_and_phases(rng):
    X = rng.uniform(size=(20_000, 3))
    reports = []
    count = simjoin.join(X, 0.01, engine="cpu-bruteforce", output="count",
                         progress=lambda fraction, phase: reports.append((fraction, phase)))
    fractions = [fraction for fraction, _ in reports]
    assert len(reports) >= 2 and fractions == sorted(fractions) and fractions[-1] == 1.0
    assert all(isinstance(phase, str) for _, phase in reports)
    assert count == len(self_pairs(X, 0.01))


def test_exception_from_progress_cancels_and_propagates():
    started = time.monotonic()

    def stop(fraction, phase):
        raise Stop

    with pytest.raises(Stop):
        simjoin.join(**LONG_JOIN, progress=stop)
    assert time.monotonic() - started < 2.0


def test_every_engine_runs_exactly_after_a_cancel(engine, rng):
    X = rng.normal(size=(20_000, 3))

    def stop(fraction, phase):
        raise KeyboardInterrupt

    # The callback's first call may come during the join or, for a fast one, at its end: either way
    # its exception is raised.
    with pytest.raises(KeyboardInterrupt):
        simjoin.join(X, 0.1, engine=engine["name"], progress=stop)
    assert_engine_pairs(engine, simjoin.join(X, 0.1, engine=engine["name"]), self_pairs(X, 0.1))


def test_other_threads_run_during_a_join():
    ticks = 0
    done = threading.Event()

    def count_ticks():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count_ticks)
    counter.start()
    ticks_before, started = ticks, time.monotonic()
    simjoin.join(LONG_JOIN["X"][:20_000], LONG_JOIN["eps"], engine=LONG_JOIN["engine"], output="count")
    ticks_during, seconds = ticks - ticks_before, time.monotonic() - started
    done.set()
    counter.join()
    # With the GIL held throughout, the counter would stand still.
    assert ticks_during > 20 * seconds, f"{ticks_during} ticks in {seconds:.2f} s"
