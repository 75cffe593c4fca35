#!/usr/bin/env python3
"""The layering of docs/architecture.md, checked on every #include of the project's own code.

A folder uses only the folders before it: rules -> index -> table -> limits -> folder -> gen,
probe -> tools, python (gen and probe do not use each other), and inside gen, probe, table and
tools the sub-folders are ordered the same way. Prints each include that goes against the order
and exits 1; prints the number of files checked and exits 0 otherwise.
Usage: check_layers.py [SOURCE_ROOT]
"""
import pathlib
import re
import sys

# (folder prefix, rank): a file may include a file of lower rank, or of its own folder. Folders
# of equal rank (gen and probe) may not include each other. The longest prefix decides.
LAYERS = {
    "rules": (0,),
    "index": (1,),
    "table": (2, 0),
    "table/codecs": (2, 1),
    "limits": (3,),
    "folder": (4,),
    "gen": (5, 0),
    "gen/process": (5, 1),
    "gen/units": (5, 2),
    "gen/store": (5, 3),
    "gen/solve": (5, 4),
    "gen/write": (5, 5),
    "gen/plan": (5, 6),
    "gen/run": (5, 7),
    "gen/limits": (5, 8),
    "gen/verify": (5, 8),
    "probe": (5, 0),
    "probe/study": (5, 1),
    "tools/render": (6, 0),
    "tools/serve": (6, 1),
    "tools/cli": (6, 2),
    "tools/mpi": (6, 3),
    "python": (6, 0),
}
# The two top-level families of rank 5, and of rank 6, that must not use each other.
FAMILY = lambda folder: folder.split("/")[0]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path):
    parts = path.split("/")
    best = None
    for n in range(len(parts) - 1, 0, -1):
        prefix = "/".join(parts[:n])
        if prefix in LAYERS:
            best = prefix
            break
    return best


def allowed(src, dst):
    """Whether a file of folder src may include a file of folder dst."""
    if src == dst:
        return True
    a, b = LAYERS[src], LAYERS[dst]
    if a[0] != b[0]:
        return b[0] < a[0]
    if FAMILY(src) != FAMILY(dst):
        return False  # gen and probe, tools and python
    # Same family: sub-folders by their order; two of one rank do not use each other.
    return b[1:] < a[1:]


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    bad = []
    checked = 0
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h"):
            continue
        rel = path.relative_to(root).as_posix()
        src = folder_of(rel)
        if src is None:
            continue  # tests, bench, fuzz, examples and build output may use anything
        checked += 1
        for included in INCLUDE.findall(path.read_text(errors="replace")):
            dst = folder_of(included)
            if dst is None:
                continue  # a header beside it (damas_probe.h) or a generated file
            if not allowed(src, dst):
                bad.append(f"{rel}: includes {included} ({dst} is not before {src})")
    for line in bad:
        print(line)
    print(f"{checked} files checked, {len(bad)} includes against the layering")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
