#!/usr/bin/env bash
# CPU time and peak memory of `blockprint chase odds` and `chase table` (issue 23's bounds: every
# `chase odds` within 1 s of CPU and 256 MB, a kit's grid within 5 s). A script a developer runs by hand,
# never a test:
#   scripts/bench-chase-odds.sh            # builds the release binary first
#   BENCH_NO_BUILD=1 scripts/bench-chase-odds.sh
# Each command runs once under GNU time (`/usr/bin/time -v`); the table gives user + system CPU seconds,
# the peak resident memory, the limit and PASS/MISS, and whether the answer was exact or simulated.
# Add a system's commands to ODDS / TABLES below. Exits 1 when any command misses its bound or fails.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
TARGET=${CARGO_TARGET_DIR:-$REPO/target}
BIN="$TARGET/release/blockprint"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (apt-get install time)" >&2; exit 2; }
if [ -z "${BENCH_NO_BUILD:-}" ]; then
  echo "== cargo build --release" >&2
  cargo build --release >&2
fi
[ -x "$BIN" ] || { echo "no binary at $BIN" >&2; exit 2; }

# Every system's `chase odds` with its defaults and its heaviest useful options.
ODDS=(
  "bbb"
  "bbb --rounds 1"
  "bbb --rounds 1 --quarry-mods dex=2,wis=-1 --pursuer-faster"
  "bbb --quarry-level 5 --pursuer-level 5 --quarry-hp 60 --pursuer-hp 60"
  "bbb --policy unaware --quarry-hp 200 --pursuer-hp 200"
  "coc"
  "coc --policy cautious --pursuer-mov 11 --quarry-skill 90 --pursuer-skill 20"
  "coc --policy ram --quarry-build 5 --pursuer-build 9 --pursuer-mov 10"
  "coc --policy best"
  "coc --policy best --quarry-build 5 --pursuer-build 9 --pursuer-mov 10 --quarry-skill 70"
  "coc --policy best --track clear,hard,regular-barrier:10,extreme,clear,hard-barrier:15,regular,regular,hard,extreme,clear,clear,regular,hard,extreme,clear,regular,regular,hard,clear,clear,clear,regular,extreme,hard,clear,regular,clear,hard,clear --range 1 --quarry-mov 9"
  "coc --track clear,hard,regular-barrier:10,extreme,clear,hard-barrier:15,regular,regular,hard,extreme,clear,clear,regular,hard,extreme,clear,regular,regular,hard,clear,clear,clear,regular,extreme,hard,clear,regular,clear,hard,clear --range 1 --quarry-mov 9"
)
TABLES=("bbb" "coc" "coc --policy best")
if "$BIN" chase odds --help 2>/dev/null | grep -q "urban-world"; then
  ODDS+=("urban-world" "rbf" "storypath")
  TABLES+=("urban-world" "rbf" "storypath")
fi

fail=0
printf '%-10s %-8s %8s %9s %8s  %-6s  %s\n' "command" "method" "CPU s" "peak MB" "limit" "result" "options"
run() {
  local kind=$1 limit_s=$2 args=$3
  # shellcheck disable=SC2086
  if ! /usr/bin/time -v -o "$WORK/time.txt" "$BIN" chase "$kind" $args $4 >"$WORK/out.txt" 2>"$WORK/err.txt"; then
    printf '%-10s %-8s %8s %9s %8s  %-6s  %s\n' "$kind" "-" "-" "-" "${limit_s}s" "FAIL" "$args"
    sed 's/^/    /' "$WORK/err.txt" >&2
    fail=1
    return
  fi
  local user sys kb cpu mb method res
  user=$(awk -F': ' '/User time/ {print $2}' "$WORK/time.txt")
  sys=$(awk -F': ' '/System time/ {print $2}' "$WORK/time.txt")
  kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$WORK/time.txt")
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  mb=$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }')
  if grep -q '"method": "simulated"\|SIMULATED\|%\*' "$WORK/out.txt"; then method=simulated; else method=exact; fi
  res=PASS
  if awk -v c="$cpu" -v l="$limit_s" -v m="$mb" 'BEGIN { exit !(c > l || m > 256) }'; then res=MISS; fail=1; fi
  printf '%-10s %-8s %8s %9s %8s  %-6s  %s\n' "$kind" "$method" "$cpu" "$mb" "${limit_s}s" "$res" "$args"
}
for a in "${ODDS[@]}"; do run odds 1 "$a" "--json"; done
for a in "${TABLES[@]}"; do run table 5 "$a" ""; done
exit $fail
