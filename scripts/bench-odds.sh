#!/usr/bin/env bash
# Exact odds of big pools: blockprint against icepool (PyPI), side by side. A script a developer runs by
# hand, never a test:
#   scripts/bench-odds.sh                 # BENCH_ROUNDS=5
# It builds the release binary, makes a Python venv under out/ and installs icepool into it (skipping the
# peer with a message when that fails), then for each expression runs blockprint and icepool alternating
# (A B A B …), prints the median wall times of whole processes (start-up included; both print every
# outcome as an exact fraction) and their ratio, icepool's in-process compute time, and whether the two
# exact distributions agree value by value. See scripts/README.md.
set -euo pipefail

ROUNDS=${BENCH_ROUNDS:-5}
EXPRS=("100d6" "20d20kh3" "50d10cs>=8" "100d6kh10")

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
TARGET=${CARGO_TARGET_DIR:-$REPO/target}
BIN="$TARGET/release/blockprint"
mkdir -p "$REPO/out"
WORK=$(mktemp -d "$REPO/out/.bench-odds.XXXXXX")
VENV="$REPO/out/.bench-odds-venv"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

say() { printf '%s\n' "$*" >&2; }
usec() { local t=${EPOCHREALTIME/[.,]/}; printf '%s' "$t"; }
# timed CMD… : run CMD with its output to a file, print its wall time in seconds.
timed() {
  local s e
  s=$(usec)
  "$@" >"$WORK/out.txt" 2>>"$WORK/log.txt" || return 1
  e=$(usec)
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", (b - a) / 1e6 }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "inf"; else printf "%.2f", a / b }'; }

say "== cargo build --release"
cargo build --release
[ -x "$BIN" ] || { say "no binary at $BIN"; exit 1; }

HAVE_ICEPOOL=0
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import icepool' 2>/dev/null; then
  HAVE_ICEPOOL=1
else
  say "== making a venv at $VENV and installing icepool (pip install icepool)"
  if python3 -m venv "$VENV" >>"$WORK/log.txt" 2>&1 \
    && "$VENV/bin/pip" install -q icepool >>"$WORK/log.txt" 2>&1 \
    && "$VENV/bin/python" -c 'import icepool' 2>/dev/null; then
    HAVE_ICEPOOL=1
  else
    say "   could not install icepool (no python3 venv or no PyPI): timing blockprint alone"
  fi
fi

# The peer: the same distribution in icepool, every outcome printed as an exact reduced fraction;
# the in-process compute time goes to stderr.
cat >"$WORK/peer.py" <<'EOF'
import sys, time
from fractions import Fraction
import icepool
expr = sys.argv[1]
started = time.perf_counter()
if expr == "100d6":
    die = 100 @ icepool.d6
elif expr == "20d20kh3":
    die = icepool.d20.pool(20).highest(3).sum()
elif expr == "50d10cs>=8":
    die = 50 @ (icepool.d10 >= 8)
elif expr == "100d6kh10":
    die = icepool.d6.pool(100).highest(10).sum()
else:
    sys.exit(f"no icepool form for {expr}")
computed = time.perf_counter() - started
den = die.denominator()
out = [f"{int(v)}\t{Fraction(q, den)}" for v, q in die.items() if q]
print("\n".join(out))
print(f"{computed:.4f}", file=sys.stderr)
EOF
# blockprint's JSON as the same lines, to compare the two exactly.
cat >"$WORK/ours.py" <<'EOF'
import json, sys
for o in json.load(sys.stdin)["outcomes"]:
    print(f"{o['value']}\t{o['probability']}")
EOF

peer() { "$VENV/bin/python" "$WORK/peer.py" "$1"; }
ours() { "$BIN" odds -- "$1"; }

say "== blockprint $("$BIN" --version 2>/dev/null || echo '?'), icepool $([ $HAVE_ICEPOOL = 1 ] && "$VENV/bin/python" -c 'import icepool; print(icepool.__version__)' || echo none), rounds=$ROUNDS, load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') on $(nproc) cpus"
ROWS=()
for e in "${EXPRS[@]}"; do
  as=() bs=() cs=()
  for ((r = 1; r <= ROUNDS; r++)); do
    if ! t=$(timed ours "$e"); then say "  $e: blockprint failed"; tail -n 5 "$WORK/log.txt" >&2; exit 1; fi
    as+=("$t")
    if [ $HAVE_ICEPOOL = 1 ]; then
      if t=$(timed peer "$e"); then
        bs+=("$t")
        cs+=("$(tail -n 1 "$WORK/log.txt")")
      else
        say "  $e: icepool failed"; tail -n 5 "$WORK/log.txt" >&2
      fi
    fi
  done
  A=$(median "${as[@]}")
  if [ ${#bs[@]} -gt 0 ]; then
    B=$(median "${bs[@]}")
    C=$(median "${cs[@]}")
    "$BIN" odds --json -- "$e" | "$VENV/bin/python" "$WORK/ours.py" >"$WORK/a.txt"
    peer "$e" >"$WORK/b.txt" 2>/dev/null
    if cmp -s "$WORK/a.txt" "$WORK/b.txt"; then SAME=agree; else SAME=DIFFER; fi
    ROWS+=("$e|$A|$B|$C|$(ratio "$B" "$A")|$SAME")
  else
    ROWS+=("$e|$A|-|-|-|SKIP")
  fi
  say "  $e done"
done

printf '\n%-12s %12s %12s %16s %10s %s\n' "expression" "blockprint" "icepool" "icepool compute" "B/A" "exact distributions"
for row in "${ROWS[@]}"; do
  IFS='|' read -r e a b c x s <<<"$row"
  printf '%-12s %11ss %11ss %15ss %10s %s\n' "$e" "$a" "$b" "$c" "$x" "$s"
done
printf '\nwall times are medians of %s whole-process runs (start-up and printing every outcome included)\n' "$ROUNDS"
