#!/usr/bin/env python3
"""Write seeds/data: every content file (as the data target walks content/, README.md left out)
behind the byte that picks it and a byte that picks the kind (the file's place again, so the seeds
reach every kind a game offers). Run again whenever a content file is added or removed, since the byte
is the file's place in path order."""
import os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "content")
out = os.path.join(here, "seeds", "data")
files = []


def walk(d):
    for name in sorted(os.listdir(d), key=lambda n: n.encode()):
        p = os.path.join(d, name)
        if os.path.isdir(p):
            walk(p)
        elif name.endswith((".toml", ".md")):
            files.append(os.path.relpath(p, root).replace(os.sep, "/"))


walk(root)
files = [f for f in files if f != "README.md"]
assert len(files) <= 256, "one byte picks the file"
os.makedirs(out, exist_ok=True)
for f in os.listdir(out):
    os.remove(os.path.join(out, f))
for i, f in enumerate(files):
    with open(os.path.join(root, f), "rb") as src, open(os.path.join(out, f.replace("/", "_")), "wb") as dst:
        dst.write(bytes([i, i]) + src.read())
print(f"{len(files)} seeds in {out}")
