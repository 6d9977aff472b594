#!/usr/bin/env bash
# The release as a GM gets it, checked on this machine (issue 25). It checks the commit HEAD points at, as a
# tag of it would be released: a clone of it in a scratch folder (uncommitted changes are not part of it).
#  1. LICENSE-fonts and the committed release workflow are up to date with their sources.
#  2. `cargo package --workspace` packs every crate of the workspace, in dependency order; no package holds a
#     test, fixture, golden or output file; each crate that embeds content, templates or fonts carries them;
#     and the packed crates, unpacked and built together in release with the packed Cargo.lock, make the
#     binary, as `cargo install blockprint --locked` will once they are published.
#  3. dist builds this machine's release archive, its checksum, the shell installer and the Homebrew formula.
#  4. The archive holds the binary, the README and the three licence files, and nothing else.
#  5. In an empty folder outside the checkout, with no Rust toolchain on PATH (and, where a mount namespace
#     can be made, with the checkout and the toolchain hidden), the unpacked binary runs `--version`,
#     `check` and `build`. The shell installer, served from a local web server, installs it the same way.
#  6. Every file `build` writes there is byte-identical to what `cargo run --release -- build` writes from
#     the checkout, and so is the output of the binary built from the packed crate.
#
#   scripts/release-check.sh                  # uses `dist` from PATH; installs the pinned version if missing
#   CARGO_TARGET_DIR=/elsewhere scripts/release-check.sh   # the target folder every build below uses
#   RELEASE_CHECK_KEEP=1 scripts/release-check.sh   # keep the scratch folder (its path is printed)
#   RELEASE_CHECK_ONLY=package scripts/release-check.sh   # stop after the packages (steps 1 and 2)
#
# The builds go to CARGO_TARGET_DIR when it is set, else to target/release-check/ of the checkout (kept
# between runs, so a second run compiles only what changed; never target/release/, whose binary the checkout's
# own commands use). Exits non-zero on the first failure, naming it. Timings of each step are printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKOUT=$PWD
export CARGO_TERM_COLOR=never

SEED=1976                                    # the batch every build below makes
HOST=$(rustc -vV | sed -n 's/^host: //p')
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
    CARGO_TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release-check
fi
export CARGO_TARGET_DIR
TARGET_DIR=$CARGO_TARGET_DIR
WORK=$(mktemp -d "${TMPDIR:-/tmp}/blockprint-release-check.XXXXXX")
case "$WORK/" in "$CHECKOUT"/*) echo "error: the scratch folder $WORK is inside the checkout" >&2; exit 2 ;; esac
SERVER_PID=
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
    if [ "${RELEASE_CHECK_KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

TIMES=()
STEP_START=$(date +%s)
step() { # step NAME: close the previous step's timer and announce the next
    local now; now=$(date +%s)
    [ -n "${STEP_NAME:-}" ] && TIMES+=("$(printf '%5ss  %s' $((now - STEP_START)) "$STEP_NAME")")
    STEP_NAME=$1; STEP_START=$now
    echo "== $1"
}
fail() { echo "FAIL: $*" >&2; exit 1; }

# The commit under check: a clone of HEAD, so that what is checked is what a tag of it releases, whatever
# else the checkout holds uncommitted.
git clone --quiet --no-hardlinks "$CHECKOUT" "$WORK/src"
ROOT=$WORK/src
cd "$ROOT"
echo "checking commit $(git rev-parse --short=12 HEAD) (a clone in $ROOT; builds in $TARGET_DIR)"
if [ -n "$(git -C "$CHECKOUT" status --porcelain --untracked-files=no)" ]; then
    echo "note: the checkout has uncommitted changes; they are not part of this check"
fi
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
DIST_VERSION=$(sed -n 's/^cargo-dist-version = "\(.*\)"$/\1/p' dist-workspace.toml)

# A shell with nothing of the developer's: no cargo, rustc or rustup on PATH, an empty HOME, no CARGO_* or
# RUST* variables. Where the kernel lets us make a mount namespace (root, or user namespaces), the checkout,
# the clone and the Rust toolchain are also hidden under empty tmpfs mounts, so a binary that read any of
# them at run time would fail here.
CLEAN_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
HIDE=("$CHECKOUT" "$ROOT" "${CARGO_HOME:-$HOME/.cargo}" "${RUSTUP_HOME:-$HOME/.rustup}")
ISOLATION="PATH without Rust, empty HOME"
if unshare --mount --map-root-user true 2>/dev/null || unshare --mount true 2>/dev/null; then
    ISOLATION="$ISOLATION, checkout and toolchain hidden"
    UNSHARE=(unshare --mount)
    [ "$(id -u)" = 0 ] || UNSHARE+=(--map-root-user)
else
    UNSHARE=()
fi
clean_run() { # clean_run DIR CMD...: run CMD in DIR in the clean environment
    local dir=$1; shift
    mkdir -p "$WORK/home"
    local hide=""
    if [ ${#UNSHARE[@]} -gt 0 ]; then
        for h in "${HIDE[@]}"; do [ -d "$h" ] && hide+="mount -t tmpfs none '$h' && "; done
        "${UNSHARE[@]}" sh -c "$hide cd '$dir' && exec env -i PATH='$CLEAN_PATH' HOME='$WORK/home' \"\$@\"" sh "$@"
    else
        (cd "$dir" && exec env -i PATH="$CLEAN_PATH" HOME="$WORK/home" "$@")
    fi
}

# --- 1 ----------------------------------------------------------------------------------------------------
step "sources of generated files"
scripts/font-licences.sh --check
if ! dist --version 2>/dev/null | grep -qx "cargo-dist $DIST_VERSION"; then
    echo "dist $DIST_VERSION is not on PATH: cargo install cargo-dist --version $DIST_VERSION --locked"
    cargo install cargo-dist --version "$DIST_VERSION" --locked --quiet
fi
dist --version
dist generate --check || fail "the release workflow is out of date with dist-workspace.toml: run 'dist generate' and commit it"
# Every deliverable of a release is planned: an archive per target, both installers, the formula.
dist plan --output-format=json > "$WORK/plan.json" 2> /dev/null
python3 - "$WORK/plan.json" <<'PY' || fail "dist plan lacks a deliverable"
import json, sys
names = set(json.load(open(sys.argv[1]))["artifacts"])
want = {"blockprint-installer.sh", "blockprint-installer.ps1", "blockprint.rb", "sha256.sum"}
want |= {f"blockprint-{t}.tar.xz" for t in ("x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu",
         "x86_64-unknown-linux-musl", "aarch64-unknown-linux-musl", "x86_64-apple-darwin", "aarch64-apple-darwin")}
want.add("blockprint-x86_64-pc-windows-msvc.zip")
missing = sorted(want - names)
print("dist plan: " + (f"missing {missing}" if missing else f"{len(names)} artifacts, every archive and installer"))
sys.exit(1 if missing else 0)
PY

# --- 2 ----------------------------------------------------------------------------------------------------
step "cargo package --workspace"
# The workspace's packages, each with its list: nothing a user of the crate does not build from.
cargo metadata --format-version 1 --no-deps --locked | python3 -c '
import json, sys
m = json.load(sys.stdin)
ids = set(m["workspace_members"])
for p in m["packages"]:
    if p["id"] in ids:
        print(p["name"])' > "$WORK/packages.txt"
TOTAL=0
while read -r pkg; do
    cargo package --list --locked --quiet -p "$pkg" > "$WORK/list-$pkg.txt"
    if bad=$(grep -E '^(tests|fuzz|out|target|scripts|benches|examples|\.ci|\.github)/|(^|/)(tests\.rs|golden|fixtures?)(/|$)' "$WORK/list-$pkg.txt"); then
        fail "cargo package would ship these in $pkg: $bad"
    fi
    TOTAL=$((TOTAL + $(wc -l < "$WORK/list-$pkg.txt")))
done < "$WORK/packages.txt"
# The crates that embed folders of the repository carry every file of them (through their links).
for pair in blockprint-content:content blockprint-render:templates blockprint-render:fonts; do
    pkg=${pair%%:*} dir=${pair#*:}
    want=$(git ls-files -- "$dir" | sort)
    got=$(grep "^$dir/" "$WORK/list-$pkg.txt" | sort)
    if [ -z "$want" ] || [ "$want" != "$got" ]; then fail "$pkg does not carry every file of $dir/"; fi
done
echo "$(wc -l < "$WORK/packages.txt") packages, $TOTAL files, none a test, fixture, golden or output file"
# The clone is clean, so no --allow-dirty: .cargo_vcs_info.json records the commit and no local changes.
# Cargo's own verification (a debug build of each crate) is left to the release build below, which is what
# `cargo install` does.
cargo package --workspace --locked --no-verify --quiet
mkdir -p "$WORK/crates/packed"
while read -r pkg; do
    crate="$TARGET_DIR/package/$pkg-$VERSION.crate"
    [ -f "$crate" ] || fail "cargo package wrote no $crate"
    echo "$(basename "$crate"): $(du -k "$crate" | cut -f1) KiB"
    tar -xzf "$crate" -C "$WORK/crates/packed"
    if links=$(find "$WORK/crates/packed/$pkg-$VERSION" -type l | grep .); then
        fail "$pkg's package holds links, not files: $links"
    fi
done < "$WORK/packages.txt"
(cd "$WORK/crates/packed" && find . -type f -exec sha256sum {} + | sort -k2) > "$WORK/crate-before.txt"
# What `cargo install blockprint --locked` does once the crates are published: a release build of the packed
# sources with the packed Cargo.lock. The library crates come from their unpacked packages instead of
# crates.io ([patch]); the lock may change only in their entries (source and checksum), every other
# dependency stays as packed. Nothing outside the unpacked packages is within reach: their build scripts
# find content, templates and fonts in their own folders or fail.
{
    echo "[patch.crates-io]"
    while read -r pkg; do
        [ "$pkg" = blockprint ] || echo "$pkg = { path = \"$WORK/crates/packed/$pkg-$VERSION\" }"
    done < "$WORK/packages.txt"
} > "$WORK/crates/patch.toml"
build_packed() { # build_packed PKG CARGO-BUILD-ARGS...: build the unpacked PKG in release as its own root
    local dir="$WORK/crates/packed/$1-$VERSION"; shift
    cp "$dir/Cargo.lock" "$WORK/crates/Cargo.lock.packed"
    (cd "$dir" && cargo build --release --offline --quiet --config "$WORK/crates/patch.toml" "$@")
    python3 - "$WORK/crates/Cargo.lock.packed" "$dir/Cargo.lock" <<'PY' || fail "building $dir changed its locked dependencies"
import sys, tomllib
def entries(path):
    return {(p["name"], p["version"]): p for p in tomllib.load(open(path, "rb"))["package"]}
packed, built = entries(sys.argv[1]), entries(sys.argv[2])
strip = lambda p: {k: v for k, v in p.items() if k not in ("source", "checksum")}
ours = lambda name: name == "blockprint" or name.startswith("blockprint-")
assert packed.keys() == built.keys(), sorted(packed.keys() ^ built.keys())
for key, p in packed.items():
    assert (strip(p) == strip(built[key])) if ours(key[0]) else (p == built[key]), key
print(f"{sys.argv[2].split('/')[-2]}: {len(packed)} locked packages, built as packed")
PY
    cp "$WORK/crates/Cargo.lock.packed" "$dir/Cargo.lock"
}
build_packed blockprint --bin blockprint
mkdir -p "$WORK/cargo-root/bin"
cp "$TARGET_DIR/release/blockprint" "$WORK/cargo-root/bin/blockprint"
# A library crate the application does not use is built from its own package too (it is published all the same).
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
m = json.load(sys.stdin)
names = {p["id"]: p["name"] for p in m["packages"]}
deps = {n["id"]: [d["pkg"] for d in n["deps"] if any(k["kind"] != "dev" for k in d["dep_kinds"])]
        for n in m["resolve"]["nodes"]}
root = next(i for i in m["workspace_members"] if names[i] == "blockprint")
seen, todo = set(), [root]
while todo:
    i = todo.pop()
    if i not in seen:
        seen.add(i)
        todo += deps[i]
for i in m["workspace_members"]:
    if i not in seen:
        print(names[i])' > "$WORK/unused.txt"
while read -r pkg; do build_packed "$pkg"; done < "$WORK/unused.txt"
(cd "$WORK/crates/packed" && find . -type f -exec sha256sum {} + | sort -k2) > "$WORK/crate-after.txt"
cmp -s "$WORK/crate-before.txt" "$WORK/crate-after.txt" || fail "building the packed crates changed their sources"
if [ "${RELEASE_CHECK_ONLY:-}" = package ]; then
    step "done (RELEASE_CHECK_ONLY=package: the packages only)"
    printf '%s\n' "${TIMES[@]}"
    exit 0
fi

# --- 3 ----------------------------------------------------------------------------------------------------
step "dist build (profile dist, $HOST)"
dist build --artifacts=all --target "$HOST" --output-format=json > "$WORK/dist.json" 2> "$WORK/dist.log" \
    || { tail -n 30 "$WORK/dist.log" >&2; fail "dist build"; }
# dist names where it put each artifact (target/distrib/ of the checkout).
ARCHIVE=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["artifacts"][sys.argv[2]]["path"])' \
    "$WORK/dist.json" "blockprint-$HOST.tar.xz") || fail "dist build names no blockprint-$HOST.tar.xz"
DISTRIB=$(dirname "$ARCHIVE")
# (The PowerShell installer is made only with a Windows target; `dist plan` above lists it.)
for f in "$ARCHIVE" "$ARCHIVE.sha256" "$DISTRIB/blockprint-installer.sh" "$DISTRIB/blockprint.rb" "$DISTRIB/sha256.sum"; do
    [ -f "$f" ] || fail "dist build made no $f"
done
(cd "$DISTRIB" && sha256sum -c "blockprint-$HOST.tar.xz.sha256") || fail "the archive's checksum file does not match it"
grep -q "$(cut -d' ' -f1 "$ARCHIVE.sha256")" "$DISTRIB/blockprint-installer.sh" || fail "the shell installer does not carry the archive's checksum"

# --- 4 ----------------------------------------------------------------------------------------------------
step "archive contents"
tar -tJf "$ARCHIVE" | sort > "$WORK/archive-list.txt"
printf '%s\n' "blockprint-$HOST/" "blockprint-$HOST/LICENSE-APACHE" "blockprint-$HOST/LICENSE-MIT" \
    "blockprint-$HOST/LICENSE-fonts" "blockprint-$HOST/README.md" "blockprint-$HOST/blockprint" | sort > "$WORK/archive-want.txt"
diff "$WORK/archive-want.txt" "$WORK/archive-list.txt" || fail "the archive does not hold exactly the binary, README and licences"
mkdir -p "$WORK/unpacked"
tar -xJf "$ARCHIVE" -C "$WORK/unpacked"
BIN="$WORK/unpacked/blockprint-$HOST/blockprint"
for f in README.md LICENSE-MIT LICENSE-APACHE LICENSE-fonts; do
    cmp -s "$ROOT/$f" "$WORK/unpacked/blockprint-$HOST/$f" || fail "the archive's $f differs from the checkout's"
done

# --- 5 ----------------------------------------------------------------------------------------------------
step "the unpacked binary in a clean environment ($ISOLATION)"
# shellcheck disable=SC2016 # $t is the inner shell's
clean_run "$WORK" sh -c 'for t in cargo rustc rustup; do if command -v $t; then exit 1; fi; done' \
    || fail "a Rust tool is on the clean PATH"
mkdir -p "$WORK/from-archive"
V_ARCHIVE=$(clean_run "$WORK/from-archive" "$BIN" --version)
echo "$V_ARCHIVE"
clean_run "$WORK/from-archive" "$BIN" check
clean_run "$WORK/from-archive" "$BIN" build --seed "$SEED" --out out --quiet

step "the shell installer, served locally"
mkdir -p "$WORK/www"
cp "$DISTRIB"/* "$WORK/www/" 2>/dev/null || true
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$WORK/www" "$PORT" > "$WORK/http.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PORT/" > /dev/null && break; sleep 0.1; done
# The README's line, with the download URL pointed at the local server; the installer puts the binary in
# ~/.local/bin of the clean HOME and leaves shell profiles alone.
clean_run "$WORK" sh -c "curl -fsSL http://127.0.0.1:$PORT/blockprint-installer.sh | BLOCKPRINT_DOWNLOAD_URL=http://127.0.0.1:$PORT BLOCKPRINT_NO_MODIFY_PATH=1 sh -s -- --quiet"
INSTALLED="$WORK/home/.local/bin/blockprint"
[ -x "$INSTALLED" ] || fail "the shell installer did not install $INSTALLED"
cmp -s "$INSTALLED" "$BIN" || fail "the installed binary differs from the archive's"
clean_run "$WORK" "$INSTALLED" --version > /dev/null
echo "installed $INSTALLED, identical to the archive's binary"

# --- 6 ----------------------------------------------------------------------------------------------------
step "cargo run --release -- build from the checkout"
mkdir -p "$WORK/from-checkout"
(cd "$WORK/from-checkout" && cargo run --release --quiet --manifest-path "$ROOT/Cargo.toml" -- build --seed "$SEED" --out out --quiet)
V_CHECKOUT=$(cargo run --release --quiet --manifest-path "$ROOT/Cargo.toml" -- --version)

step "the binary built from the packed crate"
mkdir -p "$WORK/from-crate"
V_CRATE=$(clean_run "$WORK/from-crate" "$WORK/cargo-root/bin/blockprint" --version)
echo "$V_CRATE"
clean_run "$WORK/from-crate" "$WORK/cargo-root/bin/blockprint" build --seed "$SEED" --out out --quiet

step "compare"
# --version: the same version and commit everywhere; the content version is the one the manifests carry.
re="^blockprint $VERSION \\(commit ([0-9a-f]{12}( with local changes)?), content ([0-9a-f]{12})\\)\$"
for v in "$V_ARCHIVE" "$V_CHECKOUT" "$V_CRATE"; do
    [[ $v =~ $re ]] || fail "--version printed '$v'"
done
[ "$V_ARCHIVE" = "$V_CHECKOUT" ] || fail "--version: archive '$V_ARCHIVE', checkout '$V_CHECKOUT'"
[[ $V_CRATE =~ $re ]]
CRATE_COMMIT=${BASH_REMATCH[1]%% *} CRATE_CONTENT=${BASH_REMATCH[3]}
[[ $V_ARCHIVE =~ $re ]]
COMMIT=${BASH_REMATCH[1]} CONTENT=${BASH_REMATCH[3]}
# The packed crate takes its commit from .cargo_vcs_info.json, where "local changes" means any packed file
# (README.md too) differs; the checkout's build.rs only looks at the files the binary is made from. So only
# the commit itself and the content must agree.
[ "$CRATE_COMMIT $CRATE_CONTENT" = "${COMMIT%% *} $CONTENT" ] || fail "--version: packed crate '$V_CRATE', checkout '$V_CHECKOUT'"
[ "${COMMIT%% *}" = "$(git rev-parse --short=12 HEAD)" ] || fail "--version names commit ${COMMIT%% *}, HEAD is $(git rev-parse --short=12 HEAD)"
grep -q "\"content_version\": \"$CONTENT\"" "$WORK/from-archive/out/tables/manifest.json" \
    || fail "--version names content $CONTENT, the manifest another"
(cd "$WORK/from-checkout/out" && find . -type f | sort) > "$WORK/files.txt"
N=$(wc -l < "$WORK/files.txt")
[ "$N" -gt 0 ] || fail "build wrote nothing"
for side in from-archive from-crate; do
    (cd "$WORK/$side/out" && find . -type f | sort) | diff "$WORK/files.txt" - > /dev/null \
        || fail "$side: build wrote other files than the checkout's"
    while IFS= read -r f; do
        cmp -s "$WORK/from-checkout/out/$f" "$WORK/$side/out/$f" || fail "$side: $f differs from the checkout's"
    done < "$WORK/files.txt"
done
BYTES=$(find "$WORK/from-checkout/out" -type f -printf '%s\n' | awk '{ n += $1 } END { print n }')
echo "$N files ($BYTES bytes) byte-identical: archive = checkout = packed crate"

step "sizes"
BIN_BYTES=$(stat -c %s "$BIN")
echo "archive $(basename "$ARCHIVE"): $(stat -c %s "$ARCHIVE") bytes; binary (profile dist, stripped): $BIN_BYTES bytes"
step "done"
printf '%s\n' "${TIMES[@]}"
echo "release check passed: $V_ARCHIVE"
