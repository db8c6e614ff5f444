#!/usr/bin/python3
"""Writes the fuzzers' seed corpus, tests/fuzz/corpus/<reader>/: small valid files of every variant each
reader knows, and a few edge cases. Run with Debian's python3 (NumPy, python3-vtk9) when a reader gains a
variant; the files are committed."""
import pathlib
import struct

import numpy as np
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkPolyData, vtkStructuredGrid, vtkUnstructuredGrid
from vtkmodules.vtkIOLegacy import vtkDataSetWriter
from vtkmodules.vtkIOXML import vtkXMLPolyDataWriter

ROOT = pathlib.Path(__file__).resolve().parent / "corpus"
POINTS = np.array([[0.5, -1.25, 3.0], [1e3, 2.5e-3, -7.0], [4.0, 5.0, 6.0], [0.0, 0.0, 0.0]])


def put(reader, name, data):
    folder = ROOT / reader
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def text_seeds():
    put("text", "header.csv", "x,y,z\n1,2,3\n4.5,-6,7e3\n")
    put("text", "tabs.tsv", "a\tb\n1\t2\n3\t4\n")
    put("text", "comments.txt", "# points\n1 2\n\n3 4\n")
    put("text", "quoted.csv", '"x";"y"\n"1";"2"\n3;4\n')
    put("text", "cr-only.csv", "x,y,z\r1,2,3\r4.5,-6,7e3\r")
    put("text", "bom.csv", "\ufeffx,y\r\n1,2\r\n3,4\r\n")
    put("text", "label-column.csv", "id,x\nP001,1.5\nP002,-2\n")


def npy_seeds():
    import io
    for name, array in {"f8.npy": POINTS, "f4.npy": POINTS.astype("<f4"), "i4.npy": np.arange(6, dtype="<i4").reshape(3, 2),
                        "i8-1d.npy": np.arange(4, dtype="<i8"), "fortran.npy": np.asfortranarray(POINTS), "big-f8.npy": POINTS.astype(">f8"),
                        "big-f4.npy": POINTS.astype(">f4")}.items():
        buffer = io.BytesIO()
        np.save(buffer, array)
        put("npy", name, buffer.getvalue())


def ply_header(fmt, vertex_props, faces_first=False, faces=1):
    vertex = f"element vertex {len(POINTS)}\n" + "".join(f"property {t} {n}\n" for t, n in vertex_props)
    face = f"element face {faces}\nproperty list uchar int vertex_indices\n"
    return f"ply\nformat {fmt} 1.0\ncomment seed\n" + (face + vertex if faces_first else vertex + face) + "end_header\n"


def ply_seeds():
    props = [("float", "x"), ("float", "y"), ("float", "z")]
    rows = "".join(" ".join(f"{v:g}" for v in p) + "\n" for p in POINTS)
    put("ply", "ascii.ply", ply_header("ascii", props) + rows + "3 0 1 2\n")
    put("ply", "ascii-face-first.ply", ply_header("ascii", props, faces_first=True) + "3 0 1 2\n" + rows)
    props6 = [("double", "x"), ("double", "y"), ("double", "z"), ("uchar", "red"), ("short", "t"), ("int", "id")]
    put("ply", "ascii-extra.ply", ply_header("ascii", props6, faces=0) + "".join(
        " ".join(f"{v:g}" for v in p) + f" 255 -3 {i}\n" for i, p in enumerate(POINTS)))
    for fmt, order in (("binary_little_endian", "<"), ("binary_big_endian", ">")):
        vertices = b"".join(struct.pack(order + "fff", *p) for p in POINTS)
        face = struct.pack(order + "B3i", 3, 0, 1, 2)
        put("ply", f"{fmt}.ply", ply_header(fmt, props).encode() + vertices + face)
        put("ply", f"{fmt}-face-first.ply", ply_header(fmt, props, faces_first=True).encode() + face + vertices)


def las_file(minor, point_format, record_length, scale=(0.001,) * 3, offset=(500000.0, 4000000.0, 0.0), vlr=b""):
    header_size = {2: 227, 3: 235, 4: 375}[minor]
    stored = np.round(POINTS / scale).astype("<i4")  # the points, moved by the offset
    records = b"".join(struct.pack("<3i", *row) + bytes(record_length - 12) for row in stored)
    count = len(POINTS)
    header = bytearray(header_size)
    header[0:4] = b"LASF"
    header[24], header[25] = 1, minor
    struct.pack_into("<HIIBHI", header, 94, header_size, header_size + len(vlr), 1 if vlr else 0, point_format,
                     record_length, count if point_format < 6 else 0)
    struct.pack_into("<3d3d", header, 131, *scale, *offset)
    if minor == 4:
        struct.pack_into("<Q", header, 247, count)
    return bytes(header) + vlr + records


def las_seeds():
    put("las", "v12-format0.las", las_file(2, 0, 20))
    put("las", "v12-format1-extra.las", las_file(2, 1, 32))
    put("las", "v13-format3.las", las_file(3, 3, 34, vlr=bytes(54) + b"extra"))
    put("las", "v14-format6.las", las_file(4, 6, 30))
    put("las", "v14-format10.las", las_file(4, 10, 67, scale=(0.01, 0.01, 0.001), offset=(0.0, 0.0, 0.0)))


def vtk_points():
    points = vtkPoints()
    points.SetDataTypeToDouble()
    for p in POINTS:
        points.InsertNextPoint(*p)
    return points


def vtp_seeds():
    poly = vtkPolyData()
    poly.SetPoints(vtk_points())
    for name, mode, encode, compress, header in (("ascii", 0, 0, False, 64), ("inline", 1, 0, False, 64),
                                                  ("inline-zlib", 1, 0, True, 32), ("appended-raw", 2, 0, False, 64),
                                                  ("appended-base64", 2, 1, False, 32), ("appended-zlib", 2, 1, True, 64)):
        writer = vtkXMLPolyDataWriter()
        writer.SetInputData(poly)
        writer.SetDataMode(mode)
        writer.SetEncodeAppendedData(encode)
        writer.SetHeaderTypeToUInt64() if header == 64 else writer.SetHeaderTypeToUInt32()
        if not compress:
            writer.SetCompressorTypeToNone()
        writer.WriteToOutputStringOn()
        writer.Write()
        put("vtp", name + ".vtp", writer.GetOutputString())


def legacy_seeds():
    datasets = {"poly": vtkPolyData(), "ugrid": vtkUnstructuredGrid(), "sgrid": vtkStructuredGrid()}
    datasets["sgrid"].SetDimensions(2, 2, 1)
    for name, data in datasets.items():
        data.SetPoints(vtk_points())
        for binary in (False, True):
            writer = vtkDataSetWriter()
            writer.SetInputData(data)
            writer.SetFileTypeToBinary() if binary else writer.SetFileTypeToASCII()
            writer.WriteToOutputStringOn()
            writer.Write()
            put("vtk", f"{name}-{'binary' if binary else 'ascii'}.vtk", writer.GetOutputStdString())


if __name__ == "__main__":
    text_seeds()
    npy_seeds()
    ply_seeds()
    las_seeds()
    vtp_seeds()
    legacy_seeds()
