"""Where a distributed join runs: a LocalCluster that listens on the loopback address only, with its
dashboard off unless asked for, or a running scheduler reached by address, over TLS where certificates
are given."""
import os

from distributed import Client, LocalCluster
from distributed.security import Security

from . import main_guard

LOOPBACK = "127.0.0.1"


def local_cluster(n_workers=None, memory_limit="auto", dashboard_address=None, threads_per_worker=1, preload=()):
    """n_workers worker processes (default: one per core) on this machine, reachable from it alone.
    dashboard_address (e.g. "127.0.0.1:8787") serves Dask's dashboard; without it the scheduler's HTTP
    server, which Dask starts anyway (on 0.0.0.0:8787 when left to itself), serves only its health
    routes, on a free loopback port, as do the workers'. `preload` names modules each worker process runs
    at start (Dask's preload; the command's worker_signals). From a script, call it under
    `if __name__ == "__main__":` (MainGuardError otherwise, before any process starts)."""
    main_guard.check()
    return LocalCluster(n_workers=n_workers or os.cpu_count(), threads_per_worker=threads_per_worker,
                        processes=True, host=LOOPBACK, dashboard_address=dashboard_address or f"{LOOPBACK}:0",
                        scheduler_kwargs={"dashboard": bool(dashboard_address)}, memory_limit=memory_limit,
                        worker_dashboard_address=f"{LOOPBACK}:0", preload=list(preload))


def tls_security(ca_file, cert, key):
    """Dask's mutual TLS: this side presents cert/key, as a client, scheduler or worker, and trusts only
    ca_file's signatures."""
    return Security(tls_ca_file=ca_file, require_encryption=True,
                    tls_client_cert=cert, tls_client_key=key, tls_scheduler_cert=cert, tls_scheduler_key=key,
                    tls_worker_cert=cert, tls_worker_key=key)


def connect(scheduler, security=None):
    """A Client of the scheduler at `scheduler` ("tcp://host:port", "tls://host:port")."""
    return Client(scheduler, security=security)


def worker_resources(client):
    """(smallest memory limit in bytes, or None where unlimited; total threads) of the workers."""
    workers = client.scheduler_info()["workers"].values()
    if not workers:
        raise RuntimeError("the scheduler has no workers")
    limits = [w["memory_limit"] for w in workers if w.get("memory_limit")]
    return (min(limits) if limits else None), sum(w["nthreads"] for w in workers)
