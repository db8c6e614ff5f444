"""A finished run's pairs, read back from its shards as one dask array."""
import os
from typing import Union

import dask
import dask.array as da
import numpy as np

from . import manifest


def read_pairs(out: Union[str, os.PathLike]) -> da.Array:
    """The (m, 2) uint64 pairs of the run that wrote directory `out`, as a dask.array with one chunk
    per non-empty shard (read lazily, on whatever computes it). uint64, where simjoin.join returns
    uint32: these are global row ids across every input file, which may pass 2^32."""
    document = manifest.read(out)
    if document["output"] != "pairs":
        raise ValueError(f"{out}: the run counted its pairs and wrote none (output={document['output']!r})")
    blocks = [da.from_delayed(dask.delayed(np.load)(os.path.join(out, shard["shard"]), mmap_mode="r"),
                              shape=(shard["pairs"], 2), dtype=np.uint64)
              for shard in document["shards"] if shard["pairs"]]
    return da.concatenate(blocks) if blocks else da.zeros((0, 2), dtype=np.uint64)
