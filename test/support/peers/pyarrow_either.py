"""Union columns as pyarrow writes them, for wirekit's tests of t.either (the untagged union).

Usage: python pyarrow_either.py OUT_FILE
Writes one IPC stream of four rows and four union columns, each a string, an integer or a boolean:
  dense   a dense union with type codes 0..2 in branch order, as wirekit writes one;
  coded   a dense union with type codes 7, 3, 5 and its own child names (codes are the producer's);
  sparse  a sparse union (every child as long as the column);
  maybe   a dense union whose nulls are null entries of the integer child, not of the first.
"""

import sys

import pyarrow as pa

strings = pa.array(["ab", "xyz"], pa.string())
ints = pa.array([7, 65535], pa.uint16())
flags = pa.array([False], pa.bool_())
# rows: "ab", 7, false, "xyz"  (row 3 is the second string)
types = pa.array([0, 1, 2, 0], pa.int8())
offsets = pa.array([0, 0, 0, 1], pa.int32())
dense = pa.UnionArray.from_dense(types, offsets, [strings, ints, flags], ["string", "uint16", "bool"], [0, 1, 2])

coded = pa.UnionArray.from_dense(
    pa.array([7, 3, 5, 7], pa.int8()),
    offsets,
    [strings, pa.array([7, 65535], pa.int64()), flags],
    ["text", "number", "flag"],
    [7, 3, 5],
)

sparse = pa.UnionArray.from_sparse(
    types,
    [
        pa.array(["ab", None, None, "xyz"], pa.string()),
        pa.array([None, 7, None, None], pa.uint16()),
        pa.array([None, None, False, None], pa.bool_()),
    ],
    ["string", "uint16", "bool"],
    [0, 1, 2],
)

maybe = pa.UnionArray.from_dense(
    pa.array([1, 0, 1, 2], pa.int8()),
    pa.array([0, 0, 1, 0], pa.int32()),
    [pa.array(["ab"], pa.string()), pa.array([None, 9], pa.uint16()), flags],
    ["string", "uint16", "bool"],
    [0, 1, 2],
)

table = pa.table({"dense": dense, "coded": coded, "sparse": sparse, "maybe": maybe})
table.validate(full=True)
with pa.OSFile(sys.argv[1], "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
    writer.write_table(table)
