#!/usr/bin/env bash
# CPU time and peak memory of `blockprint chase odds` and `chase table` (issues 23 and 36: every
# `chase odds` within 1 s of CPU and 256 MB, exact or else a seeded simulation that says so; a kit's grid
# within 5 s). The heavy cases include Call of Cthulhu-style tracks of 15, 20 and 30 gaps with the
# pursuer faster (MOV 9 and 14 against 8) under every policy, where the exact solver meets its budget.
# A script a developer runs by hand, never a test:
#   scripts/bench-chase-odds.sh            # builds the release binary first
#   BENCH_NO_BUILD=1 scripts/bench-chase-odds.sh
# Each command runs once under GNU time (`/usr/bin/time -v`); the table gives user + system CPU seconds,
# the peak resident memory, the limit and PASS/MISS, and whether the answer was exact, simulated (with
# the chases it ran) or refused (best play too big to plan within the budget: exit 2 with the reason,
# which counts as answered in bounded time). The last line gives the worst CPU per question.
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
  "coc --pursuer-mov 30 --policy best"
  "bbb --rounds 1 --policy swerve --quarry-mods dex=1"
)
# Faster pursuers on tracks of 15, 20 and 30 gaps, every policy (the pursuer in a car for `ram`).
TRACK30=clear,hard,regular-barrier:10,extreme,clear,hard-barrier:15,regular,regular,hard,extreme,clear,clear,regular,hard,extreme,clear,regular,regular,hard,clear,clear,clear,regular,extreme,hard,clear,regular,clear,hard,clear
for gaps in 15 20 30; do
  track=$(echo "$TRACK30" | cut -d, -f1-"$gaps")
  for policy in reckless cautious ram best; do
    for mov in 9 14; do
      ODDS+=("coc --track $track --pursuer-mov $mov --pursuer-build 3 --policy $policy")
    done
  done
done
TABLES=("bbb" "coc" "coc --policy best")
if "$BIN" chase odds --help 2>/dev/null | grep -q "urban-world"; then
  ODDS+=("urban-world" "rbf" "storypath")
  TABLES+=("urban-world" "rbf" "storypath")
fi

fail=0
worst=0
printf '%-10s %-16s %8s %9s %8s  %-6s  %s\n' "command" "method" "CPU s" "peak MB" "limit" "result" "options"
short() { if [ ${#1} -gt 110 ]; then echo "${1:0:110}…"; else echo "$1"; fi; }
run() {
  local kind=$1 limit_s=$2 args=$3 status=0
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "$WORK/time.txt" "$BIN" chase "$kind" $args $4 >"$WORK/out.txt" 2>"$WORK/err.txt" || status=$?
  # Exit 2 with "within a question's budget": refused in bounded time, which is an answer.
  if [ "$status" -ne 0 ] && ! { [ "$status" -eq 2 ] && grep -q "within a question's budget" "$WORK/err.txt"; }; then
    printf '%-10s %-16s %8s %9s %8s  %-6s  %s\n' "$kind" "-" "-" "-" "${limit_s}s" "FAIL" "$(short "$args")"
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
  if [ "$status" -eq 2 ]; then
    method=refused
  elif grep -q '"method": "simulated"' "$WORK/out.txt"; then
    method="simulated $(sed -n 's/^ *"runs": \([0-9]*\),*$/\1/p' "$WORK/out.txt" | head -1)"
  elif grep -q 'SIMULATED\|≈' "$WORK/out.txt"; then
    method=simulated
  else
    method=exact
  fi
  res=PASS
  if awk -v c="$cpu" -v l="$limit_s" -v m="$mb" 'BEGIN { exit !(c > l || m > 256) }'; then res=MISS; fail=1; fi
  if [ "$kind" = odds ] && awk -v c="$cpu" -v w="$worst" 'BEGIN { exit !(c > w) }'; then worst=$cpu; fi
  printf '%-10s %-16s %8s %9s %8s  %-6s  %s\n' "$kind" "$method" "$cpu" "$mb" "${limit_s}s" "$res" "$(short "$args")"
}
for a in "${ODDS[@]}"; do run odds 1 "$a" "--json"; done
for a in "${TABLES[@]}"; do run table 5 "$a" ""; done
echo "worst chase odds: ${worst} s of CPU (bound 1 s); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
exit $fail
