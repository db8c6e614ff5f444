"""The exact epsilon-similarity join on a Dask cluster: KMEANS-JOIN's partitions with the engines'
epsilon-overlap replication, one simjoin.join task per partition. See docs/distributed.md.

    import simjoin.distributed as sd

    if __name__ == "__main__":  # in a script: the worker processes import it again
        manifest = sd.join("points-*.npy", 0.5, out="pairs/")  # a LocalCluster of this machine's cores
        pairs = sd.read_pairs("pairs/")                        # (m, 2) uint64 dask.array, global row ids
"""
from .cluster import connect, local_cluster, tls_security
from .errors import EngineUnavailableError, InputError, MainGuardError, OutputError
from .join import join
from .results import read_pairs

__all__ = ["join", "read_pairs", "local_cluster", "connect", "tls_security", "InputError", "OutputError",
           "EngineUnavailableError", "MainGuardError"]
