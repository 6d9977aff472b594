#!/usr/bin/env python3
"""The typst compiler alone on blockprint's templates and data: the peer `scripts/bench.sh` sets beside
blockprint's case batches when no typst CLI of the same version is installed.

    typst-peer.py ROOT FONTS ENTRY OUT INPUT=PATH... [-- KEY=VALUE...]

Compiles ENTRY (a path under ROOT, as typst sees it) once per INPUT file, with `sys.inputs` holding
INPUT=<that file under ROOT> and the KEY=VALUE pairs, into OUT/<file stem>.pdf, in one process with one
compiler (so typst's caches carry over from one document to the next, as they do inside blockprint), with
only the fonts in FONTS. Prints `typst-peer: N documents, CPU S s, wall W s` on stdout.

The `typst` package on PyPI embeds the typst compiler (the same crates the typst CLI is built from); this
script is what the typst CLI's `typst compile --root ROOT --font-path FONTS --ignore-system-fonts` does for
each file, without a process per file.
"""
import os
import sys
import time

import typst


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    root, fonts, entry, out = argv[:4]
    rest = argv[4:]
    extra = {}
    if "--" in rest:
        at = rest.index("--")
        extra = dict(kv.split("=", 1) for kv in rest[at + 1:])
        rest = rest[:at]
    key, _, first = rest[0].partition("=")
    files = [first] + rest[1:]
    root = os.path.abspath(root)
    cpu, wall = time.process_time(), time.perf_counter()
    compiler = typst.Compiler(root=root, font_paths=[fonts], ignore_system_fonts=True)
    for f in files:
        rel = "/" + os.path.relpath(os.path.abspath(f), root)
        stem = os.path.splitext(os.path.basename(f))[0]
        inputs = dict(extra, **{key: rel})
        compiler.compile(input=os.path.join(root, entry.lstrip("/")), output=os.path.join(out, stem + ".pdf"),
                         sys_inputs=inputs)
    print(f"typst-peer: {len(files)} documents, CPU {time.process_time() - cpu:.3f} s, "
          f"wall {time.perf_counter() - wall:.3f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
