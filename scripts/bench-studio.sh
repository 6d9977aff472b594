#!/usr/bin/env bash
# The studio (`blockprint serve`), measured: a script a developer runs by hand, never a test.
#   scripts/bench-studio.sh                  # BENCH_ROUNDS=20 page answers, a batch of 200 packets
#   BENCH_BATCH=50 scripts/bench-studio.sh
# It builds the release binary, starts `serve --port 0` on a fresh output folder, then prints:
#   - each page's answer time over BENCH_ROUNDS requests (median and slowest; target: under 200 ms);
#   - a make of one case packet and of the SRD from the page's own endpoint until its last event
#     (files written and previews drawn), and a batch of BENCH_BATCH case packets;
#   - author mode: a save to the new preview, for a table (the case preview; target: 1 s or less) and a
#     chapter (the SRD preview; target: 3 s or less), each against its target, "met" or "OVER"; with
#     BENCH_STRICT=1 the script exits 1 when a target is missed (the targets are for an idle machine);
#   - with headless Chromium on the machine, a 1280 × 800 screenshot of each page into BENCH_SHOTS
#     (default out/studio-shots), to look at.
# Scratch files go to a temporary folder under $TMPDIR (or /tmp), removed on exit; the server is stopped with Ctrl-C.
set -euo pipefail

ROUNDS=${BENCH_ROUNDS:-20}
BATCH=${BENCH_BATCH:-200}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
TARGET=${CARGO_TARGET_DIR:-$REPO/target}
BIN="$TARGET/release/blockprint"
SHOTS=${BENCH_SHOTS:-$REPO/out/studio-shots}
mkdir -p "$SHOTS"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-studio.XXXXXX")
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill -INT "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '%s\n' "$*" >&2; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -1; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f ms", s * 1000 }'; }

say "== cargo build --release"
cargo build --release
[ -x "$BIN" ] || { say "no binary at $BIN"; exit 1; }

"$BIN" init "$WORK/content" -q
"$BIN" serve --port 0 --out "$WORK/out" --content "$WORK/content" 2>"$WORK/serve.log" &
SERVER=$!
for _ in $(seq 1 200); do
  grep -q '^studio: http' "$WORK/serve.log" && break
  sleep 0.1
done
URL=$(sed -n 's/^studio: \(http[^ ]*\) .*/\1/p' "$WORK/serve.log")
[ -n "$URL" ] || { cat "$WORK/serve.log" >&2; exit 1; }
TOKEN=$(curl -s "$URL" | sed -n 's/.*name="bp-token" content="\([0-9a-f]*\)".*/\1/p')
say "studio at $URL"

printf '\n%-34s %12s %12s\n' "page" "median" "slowest"
for path in "/" "/tables" "/odds" "/odds?expr=3d6&at_least=15&vs=2d8" "/odds?expr=10d10kh3" "/assets/studio.js"; do
  times=()
  for _ in $(seq 1 "$ROUNDS"); do
    times+=("$(curl -s -o /dev/null -w '%{time_total}' "$URL${path#/}")")
  done
  printf '%-34s %12s %12s\n' "$path" "$(ms "$(median "${times[@]}")")" "$(ms "$(maxof "${times[@]}")")"
done

# make BODY: start a make and follow its events to the last one; prints the wall time in seconds.
make() {
  local start end job
  start=$EPOCHREALTIME
  job=$(curl -s -H "x-blockprint-token: $TOKEN" -H 'content-type: application/json' -d "$1" "${URL}make" | jq -r .job)
  curl -sN "${URL}jobs/$job/events" >"$WORK/events-$job.txt"
  end=$EPOCHREALTIME
  grep '^data: ' "$WORK/events-$job.txt" | tail -1 | sed 's/^data: //' >&2
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

printf '\n%-34s %12s\n' "make (files, then previews)" "wall"
printf '%-34s %12s\n' "case, 1 packet" "$(make '{"kind":"case","seed":1}') s"
printf '%-34s %12s\n' "case, 1 packet again (warm)" "$(make '{"kind":"case","seed":2}') s"
# saved FILE [TEXT]: change FILE (append a line break and TEXT) and wait for the studio's next change event; prints how long
# the studio took from seeing the save to the new preview being ready (its own `millis`), the wall
# time from the write to the event arriving here, and the CPU time the studio spent on it (summed over its
# threads, from /proc: on a shared, loaded machine the wall time is mostly waiting for a core, the CPU
# time is what the save cost).
saved() {
  local start end ev
  curl -sN --max-time 60 "${URL}events" >"$WORK/change.txt" &
  local reader=$!
  sleep 0.3
  local c0
  c0=$(cpu)
  start=$EPOCHREALTIME
  printf '\n%s' "${2:-}" >>"$1"
  # The studio first says it is updating, then sends the change with the new preview.
  for _ in $(seq 1 6000); do
    grep '^data: ' "$WORK/change.txt" | grep -q '"updating":false' && break
    sleep 0.01
  done
  end=$EPOCHREALTIME
  kill "$reader" 2>/dev/null || true
  ev=$(grep '^data: ' "$WORK/change.txt" | grep -m1 '"updating":false' | sed 's/^data: //')
  say "$ev"
  printf '%s' "$ev" | jq -r .millis >"$WORK/last-millis"
  printf '%s' "$(( $(cpu) - c0 ))" >"$WORK/last-cpu"
  awk -v a="$start" -v b="$end" -v m="$(printf '%s' "$ev" | jq -r .millis)" -v c="$(( $(cpu) - c0 ))" \
    'BEGIN { printf "%.2f s (studio: %d ms, CPU %d ms)", b - a, m, c }'
}
# The studio's CPU time so far, in milliseconds (user + system, from /proc; 0 where there is none).
cpu() {
  if [ -r "/proc/$SERVER/stat" ]; then
    awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$SERVER/stat"
  else
    echo 0
  fi
}
# verdict TARGET_MS: the last save's studio time against its target, "met" or "OVER" (counted).
verdict() {
  local ms
  ms=$(cat "$WORK/last-millis" 2>/dev/null || echo 999999)
  local cpu
  cpu=$(cat "$WORK/last-cpu" 2>/dev/null || echo 999999)
  if [ "$ms" -le "$1" ]; then
    echo "met (target ${1} ms)"
  else
    echo x >>"$WORK/missed"
    # On a shared machine the wall time waits for a core; the CPU time is what the save cost.
    if [ "$cpu" -le "$1" ]; then
      echo "OVER (target ${1} ms; its CPU, ${cpu} ms, is within it: a loaded machine?)"
    else
      echo "OVER (target ${1} ms)"
    fi
  fi
}
printf '%-34s %12s\n' "save a table, case preview again" "$(saved "$WORK/content/bbb/01-homicide.toml")"
printf '%-34s %12s\n' "" "$(verdict 1000)"
printf '%-34s %12s\n' "srd" "$(make '{"kind":"srd"}') s"
for n in 1 2 3; do
  printf '%-34s %12s\n' "save a chapter, SRD preview again" \
    "$(saved "$(ls "$WORK"/content/bbb/srd/*.md | head -1)" "A sentence the benchmark added, $n.
")"
  printf '%-34s %12s\n' "" "$(verdict 3000)"
done
say "(load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))"
printf '%-34s %12s\n' "case, $BATCH packets" "$(make "{\"kind\":\"case\",\"seed\":3,\"count\":$BATCH}") s"
say "batch folder: $(find "$WORK/out" -maxdepth 1 -name '*-case' | sort -V | tail -1): $(find "$WORK/out" -name '*.pdf' | wc -l) PDFs in all"

if command -v chromium >/dev/null; then
  say ""
  say "== screenshots at 1280 x 800 into $SHOTS"
  "$BIN" campaign new "$WORK/campaign" --seed 7 --detectives "Ada, Ben, Cy" --packets none -q >/dev/null
  for _ in 1 2; do curl -s -o /dev/null -H "x-blockprint-token: $TOKEN" -H 'content-type: application/json' \
    -d "{\"dir\":\"$WORK/campaign\"}" "${URL}campaign/week"; done
  for name in make tables odds campaign; do
    case $name in
      make) path="" ;;
      tables) path="tables" ;;
      odds) path='odds?expr=3d6&at_least=15&vs=2d8' ;;
      campaign) path="campaign?dir=$WORK/campaign" ;;
    esac
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
      --disable-component-update --disable-sync --user-data-dir="$WORK/profile" --hide-scrollbars \
      --window-size=1280,800 --screenshot="$SHOTS/$name.png" "$URL$path" >/dev/null 2>&1 || say "no screenshot of /$path"
    say "$SHOTS/$name.png"
  done
fi

missed=$( [ -f "$WORK/missed" ] && wc -l <"$WORK/missed" || echo 0)
say ""
say "author mode: $missed save(s) over target"
if [ "${BENCH_STRICT:-0}" = 1 ] && [ "$missed" -gt 0 ]; then
  exit 1
fi
