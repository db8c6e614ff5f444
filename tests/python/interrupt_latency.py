#!/usr/bin/env python3
"""Ctrl-C latency of simjoin.join in one phase at about 10^8 pairs (docs/python.md, "Interrupting at 10^8
pairs").

Usage: PYTHONPATH=BUILD/python interrupt_latency.py PHASE DELAY OUTPUT
  e.g. interrupt_latency.py "sorting pairs" 5 pairs, interrupt_latency.py "neighbour graph" 20 csr
Joins 2 * 10^6 uniform points in the unit cube (d = 3, cpu-grid, about 10^8 pairs), sends SIGINT to itself
DELAY seconds after PHASE is first reported, and prints the time from the signal to the
KeyboardInterrupt (or that the run ended first). Needs about 20 bytes of memory a pair.
"""
import os
import signal
import sys
import threading
import time

import numpy as np

import simjoin


def main():
    phase, delay, output = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    X = np.random.default_rng(1).uniform(size=(2_000_000, 3))
    sent = []
    armed = threading.Event()

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    def progress(fraction, name):
        if name.startswith(phase) and not armed.is_set():
            armed.set()
            threading.Timer(delay, interrupt).start()

    try:
        simjoin.join(X, 0.02285, engine="cpu-grid", output=output, progress=progress)
    except KeyboardInterrupt:
        print(f"{phase}, {delay:g} s in: KeyboardInterrupt {(time.monotonic() - sent[0]) * 1000:.0f} ms after SIGINT")
        return
    print(f"{phase}: the run ended before the signal; give a smaller delay")


if __name__ == "__main__":
    main()
