"""The inputs of a distributed join as row chunks, each loaded on a worker: NumPy arrays, dask arrays
(row-chunked), or .npy files named by a path, a glob or a list of paths (rows numbered across the files
in sorted order), read with np.load(mmap_mode="r") a chunk at a time, never all on the client."""
import glob
import os
from dataclasses import dataclass

import dask
import dask.array as da
import numpy as np

from .errors import InputError

# Rows per chunk: about 64 MiB of float64 coordinates.
CHUNK_BYTES = 1 << 26


@dataclass
class Chunk:
    name: str       # the shard named in errors: a file, or rows of an array
    first: int      # global row id of its first row
    rows: int
    load: object    # a dask.delayed giving the (rows, d) array


def default_chunk_rows(d):
    return max(1, CHUNK_BYTES // (8 * max(1, d)))


def chunks_of(points, label, client, chunk_rows=None):
    """(chunks, d) of `points`; `label` ("X", "Y") names an array in errors."""
    if isinstance(points, (str, os.PathLike, list, tuple)):
        return _file_chunks(_paths(points, label), client, chunk_rows)
    if isinstance(points, np.ndarray):
        _check_shape(points.shape, points.dtype, label)
        points = da.from_array(points, chunks=(chunk_rows or default_chunk_rows(points.shape[1]), points.shape[1]))
    if isinstance(points, da.Array):
        return _array_chunks(points, label)
    raise TypeError(f"{label} must be a NumPy array, a dask array, or a path or glob of .npy files, not {type(points)}")


def _paths(spec, label):
    specs = [spec] if isinstance(spec, (str, os.PathLike)) else list(spec)
    paths = []
    for item in specs:
        item = os.fspath(item)
        matched = sorted(glob.glob(item)) if glob.has_magic(item) else [item]
        if not matched:
            raise InputError(f"{item}: no file matches")
        paths.extend(matched)
    if not paths:
        raise InputError(f"{label}: no input files")
    return paths


def _check_shape(shape, dtype, name):
    if len(shape) != 2:
        raise InputError(f"{name}: needs a 2-D array of n points x d dimensions; its shape is {shape}")
    if np.dtype(dtype) not in (np.float32, np.float64):
        raise InputError(f"{name}: holds {np.dtype(dtype)} values; float32 or float64 are needed")
    if shape[1] < 1:
        raise InputError(f"{name}: has no columns")


def read_header(path):
    """(rows, d) of a .npy file, read on a worker; InputError naming the file if it cannot be read."""
    try:
        array = np.load(path, mmap_mode="r")
    except Exception as error:
        raise InputError(f"{path}: cannot be read as a .npy file ({error})") from None
    _check_shape(array.shape, array.dtype, path)
    return array.shape


def load_rows(path, start, stop):
    """Rows start..stop of a .npy file, read through a memory map."""
    try:
        return np.array(np.load(path, mmap_mode="r")[start:stop])
    except Exception as error:
        raise InputError(f"{path}: rows {start} to {stop} cannot be read ({error})") from None


def _file_chunks(paths, client, chunk_rows):
    shapes = client.gather(client.map(read_header, paths, pure=False))
    d = shapes[0][1]
    chunks, first = [], 0
    for path, (rows, columns) in zip(paths, shapes):
        if columns != d:
            raise InputError(f"{path}: has {columns} dimensions, {paths[0]} has {d}")
        step = chunk_rows or default_chunk_rows(d)
        for start in range(0, rows, step):
            stop = min(rows, start + step)
            load = dask.delayed(load_rows, pure=False)(path, start, stop)  # files may change between runs
            chunks.append(Chunk(path, first + start, stop - start, load))
        first += rows
    return chunks, d


def _array_chunks(array, label):
    _check_shape(array.shape, array.dtype, label)
    if any(np.isnan(c) for c in array.chunks[0]):
        raise InputError(f"{label}: a dask array of unknown chunk sizes; call compute_chunk_sizes() first")
    array = array.rechunk({1: -1})
    chunks, first = [], 0
    for rows, block in zip(array.chunks[0], array.to_delayed().ravel()):
        chunks.append(Chunk(f"{label} rows {first} to {first + rows}", first, rows, block))
        first += rows
    return chunks, array.shape[1]
