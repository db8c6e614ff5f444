"""Preloaded into each worker process of the command's local cluster (Dask's `preload`): Ctrl-C in a
terminal signals the whole process group, the command's process with its worker processes; the command
stops the run and the cluster, so the workers ignore SIGINT rather than each print a KeyboardInterrupt
traceback. Only the command preloads it: Dask logs each preload at INFO, which the command silences and
a script's cluster (sd.local_cluster, sd.join without a client) would print."""
import signal


def dask_setup(worker):  # noqa: ARG001 (Dask's preload hook)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
