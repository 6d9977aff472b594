#!/usr/bin/env bash
# blockprint benchmarks against their peers. A script a developer runs, never a test:
#   scripts/bench.sh                 # BENCH_N=100 BENCH_BIG=10000 BENCH_ROUNDS=3
# It builds the release binary, installs missing peers where it can (typst CLI, pandoc + XeLaTeX,
# GNU time), runs each pair alternating (A B A B …) and compares medians. See scripts/README.md.
set -euo pipefail

N=${BENCH_N:-100}
BIG=${BENCH_BIG:-10000}
ROUNDS=${BENCH_ROUNDS:-3}
PEER_JOBS=${BENCH_PEER_JOBS:-$(nproc)}
INSTALL=${BENCH_INSTALL:-1}   # 0: install no peer; rows whose peer is missing are skipped
SEED=42

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
BIN="$REPO/target/release/blockprint"
mkdir -p "$REPO/out"
# Under the repository root (typst's --root must contain the data), in the git-ignored out/.
WORK=$(mktemp -d "$REPO/out/.bench.XXXXXX")
LOG="$WORK/log.txt"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '%s\n' "$*" >&2; }
ROWS=()   # "name|A|B|ratio|target|verdict" rows of the summary table
row() { ROWS+=("$1|$2|$3|$4|$5|$6"); say "  -> $1: $4 ($5) $6"; }

# ---------- helpers ----------

usec() { local t=${EPOCHREALTIME/[.,]/}; printf '%s' "$t"; }

# timed CMD… : run CMD (output appended to the log), print its wall time in seconds.
timed() {
  local s e
  s=$(usec)
  "$@" >>"$LOG" 2>&1 || return 1
  e=$(usec)
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", (b - a) / 1e6 }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "inf"; else printf "%.2f", a / b }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }
verdict() { if "$@"; then echo PASS; else echo MISS; fi; }

# alternate NAME FN_A FN_B : run A B A B … ROUNDS times; sets MED_A, MED_B (seconds). Returns 1 if a run failed.
alternate() {
  local name=$1 fa=$2 fb=$3 r ta tb
  local -a as=() bs=()
  for ((r = 1; r <= ROUNDS; r++)); do
    if ! ta=$(timed "$fa"); then say "  $name: '$fa' failed (see the log below)"; return 1; fi
    if ! tb=$(timed "$fb"); then say "  $name: '$fb' failed (see the log below)"; return 1; fi
    as+=("$ta"); bs+=("$tb")
    say "  $name round $r: A ${ta}s  B ${tb}s"
  done
  MED_A=$(median "${as[@]}")
  MED_B=$(median "${bs[@]}")
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"
  else return 1
  fi
}

apt_install() {
  [ "$INSTALL" = 1 ] || return 1
  command -v apt-get >/dev/null || return 1
  as_root apt-get install -y "$@" >>"$LOG" 2>&1 && return 0
  as_root apt-get update >>"$LOG" 2>&1 && as_root apt-get install -y "$@" >>"$LOG" 2>&1
}

fail_tail() { say "  --- last lines of the log ---"; tail -n 15 "$LOG" >&2 || true; }

# ---------- build and peers ----------

say "== cargo build --release"
cargo build --release
[ -x "$BIN" ] || { say "no binary at $BIN"; exit 1; }

TYPST_VERSION=$(awk '$0 == "name = \"typst\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
HAVE_TYPST=0
if command -v typst >/dev/null && typst --version | grep -q "typst $TYPST_VERSION"; then
  HAVE_TYPST=1
else
  say "== installing the typst CLI $TYPST_VERSION (cargo install typst-cli --locked; takes minutes)"
  if [ "$INSTALL" = 1 ] && cargo install typst-cli --locked --version "$TYPST_VERSION" >>"$LOG" 2>&1 && command -v typst >/dev/null; then
    HAVE_TYPST=1
  else
    say "   could not install the typst CLI $TYPST_VERSION: skipping the typst peers"
  fi
fi

HAVE_PANDOC=0
if command -v pandoc >/dev/null && command -v xelatex >/dev/null; then
  HAVE_PANDOC=1
else
  say "== installing pandoc and XeLaTeX (apt-get install -y pandoc texlive-xetex)"
  if apt_install pandoc texlive-xetex && command -v pandoc >/dev/null && command -v xelatex >/dev/null; then
    HAVE_PANDOC=1
  else
    say "   could not install pandoc + XeLaTeX: skipping that peer"
  fi
fi

HAVE_TIME=0
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
  HAVE_TIME=1
else
  say "== installing GNU time (apt-get install -y time)"
  if apt_install time && /usr/bin/time -v true >/dev/null 2>&1; then HAVE_TIME=1
  else say "   could not install GNU time: skipping the memory checks"
  fi
fi

# The typst compiler in one process (PyPI's `typst` embeds it): the peer of the CPU rows, which compile every
# packet in one process as blockprint does, so process start-up counts on neither side.
HAVE_PYTYPST=0
pytypst() { python3 -c 'import typst, sys; sys.stdout.write(typst.__version__)' 2>/dev/null; }
if [ -n "$(pytypst)" ]; then
  HAVE_PYTYPST=1
else
  say "== installing the typst compiler for Python (pip install typst~=${TYPST_VERSION%.*}.0)"
  if [ "$INSTALL" = 1 ] && python3 -m pip install --quiet "typst~=${TYPST_VERSION%.*}.0" >>"$LOG" 2>&1 && [ -n "$(pytypst)" ]; then
    HAVE_PYTYPST=1
  else
    say "   could not install PyPI's typst: skipping the CPU rows against typst"
  fi
fi

# cpu CMD… : run CMD (output to the log), print its CPU seconds (user + system, its children included).
cpu() {
  /usr/bin/time -f '%U %S' -o "$WORK/cpu.txt" "$@" >>"$LOG" 2>&1 || return 1
  tail -n 1 "$WORK/cpu.txt" | awk '{ printf "%.3f", $1 + $2 }'
}

say "== blockprint $("$BIN" --version 2>/dev/null || echo '?'), typst CLI $([ $HAVE_TYPST = 1 ] && typst --version || echo none), typst for Python $([ $HAVE_PYTYPST = 1 ] && pytypst || echo none)"
say "   N=$N BIG=$BIG rounds=$ROUNDS cpus=$(nproc) typst peer processes in parallel=$PEER_JOBS"
say "   machine: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

# ---------- 0. build: CPU from nothing and with nothing to do ----------
# From nothing: an empty output folder, with the user's cache folder (card pictures, simulated odds pages)
# empty (cold) and as the cold run left it (warm); nothing to do: the same build again into the warm
# folder. CPU (user + system, every thread) is steadier than wall time on a shared machine. The warm build
# again on one thread (--jobs 1) shows what running two kinds at once costs in CPU.

say "== 0. build CPU: from nothing (cold cache, warm cache) and with nothing to do"
if [ $HAVE_TIME = 1 ]; then
  BUILD_CACHE="$WORK/build-cache"
  COLD=(); WARM=(); IDLE=(); ONE=()
  for ((r = 1; r <= ROUNDS; r++)); do
    rm -rf "$BUILD_CACHE" "$WORK/build0"
    c=$(BLOCKPRINT_CACHE="$BUILD_CACHE" cpu "$BIN" build --seed 7 --out "$WORK/build0" --quiet) || { COLD=(); break; }
    rm -rf "$WORK/build0"
    w=$(BLOCKPRINT_CACHE="$BUILD_CACHE" cpu "$BIN" build --seed 7 --out "$WORK/build0" --quiet) || { COLD=(); break; }
    i=$(BLOCKPRINT_CACHE="$BUILD_CACHE" cpu "$BIN" build --seed 7 --out "$WORK/build0" --quiet) || { COLD=(); break; }
    rm -rf "$WORK/build0"
    o=$(BLOCKPRINT_CACHE="$BUILD_CACHE" cpu "$BIN" build --seed 7 --out "$WORK/build0" --quiet --jobs 1) || { COLD=(); break; }
    COLD+=("$c"); WARM+=("$w"); IDLE+=("$i"); ONE+=("$o")
    say "  build round $r: from nothing ${c}s (cold cache), ${w}s (warm cache), ${o}s (warm, one thread); nothing to do ${i}s of CPU"
  done
  rm -rf "$BUILD_CACHE" "$WORK/build0"
  if [ "${#COLD[@]}" -gt 0 ]; then
    c=$(median "${COLD[@]}"); w=$(median "${WARM[@]}"); i=$(median "${IDLE[@]}"); o=$(median "${ONE[@]}")
    row "build CPU, cold cache" "${c}s" - "${c}s" "<= 4s" "$(verdict le "$c" 4)"
    row "build CPU, warm cache" "${w}s" - "${w}s" "<= 4s" "$(verdict le "$w" 4)"
    row "build CPU, warm, --jobs 1" "${o}s" - "${o}s" "<= 4s" "$(verdict le "$o" 4)"
    row "build CPU, nothing to do" "${i}s" - "${i}s" "<= 0.5s" "$(verdict le "$i" 0.5)"
  else
    fail_tail
    row "build CPU" - - - "<= 4s" "FAIL (a run failed)"
  fi
else
  row "build CPU" - - - "<= 4s" "SKIP (no GNU time)"
fi

TYPST_FLAGS=(--root "$REPO" --font-path "$REPO/fonts" --ignore-system-fonts --ignore-embedded-fonts)
rel() { printf '/%s' "${1#"$REPO"/}"; }   # a path as typst sees it under --root

# ---------- 1. case packets: blockprint vs the typst CLI once per packet ----------

say "== 1. case packets (PDF), N=$N"
JSON_DIR="$WORK/json"
CASE_ENTRY="$WORK/case-entry.typ"
cat >"$CASE_ENTRY" <<'EOF'
#import "/templates/case/case-lib.typ": case-packet
#let c = json(sys.inputs.case)
#case-packet((
  paper: sys.inputs.at("paper", default: "a4"),
  generator: "blockprint 0.1.0",
  content_version: c.content_version,
  batch_seed: c.batch_seed,
  case: c,
))
EOF
run_case_pdf() { rm -rf "$WORK/a"; BLOCKPRINT_TIMINGS=1 "$BIN" case --seed $SEED --count "$N" --format pdf --out "$WORK/a" --quiet --force 2>"$WORK/timings.txt"; local s=$?; cat "$WORK/timings.txt" >>"$LOG"; grep '^timings:' "$WORK/timings.txt" >>"$WORK/timings-all.txt" || true; return $s; }
# One typst process per packet, PEER_JOBS of them at a time (blockprint uses every CPU too).
run_case_typst() {
  rm -rf "$WORK/b"; mkdir -p "$WORK/b"
  printf '%s\0' "${CASE_JSONS[@]}" | REPO="$REPO" WORK="$WORK" ENTRY="$CASE_ENTRY" xargs -0 -n 1 -P "$PEER_JOBS" \
    bash -c 'typst compile --root "$REPO" --font-path "$REPO/fonts" --ignore-system-fonts --ignore-embedded-fonts \
      --input "case=/${1#"$REPO"/}" --input paper=a4 "$ENTRY" "$WORK/b/$(basename "$1" .json).pdf"' _
}
: >"$WORK/timings-all.txt"
CASE_OK=0
if "$BIN" case --seed $SEED --count "$N" --format json --out "$JSON_DIR" >>"$LOG" 2>&1; then
  mapfile -t CASE_JSONS < <(find "$JSON_DIR/cases" -mindepth 2 -maxdepth 2 -name '*.json' | sort)
  say "   ${#CASE_JSONS[@]} case JSON files"
  [ "${#CASE_JSONS[@]}" -gt 0 ] && CASE_OK=1
fi
if [ $CASE_OK = 0 ]; then
  fail_tail
  row "case PDF vs typst CLI" - - - ">= 2.5x" "FAIL (blockprint case --format json)"
elif [ $HAVE_TYPST = 0 ]; then
  row "case PDF vs typst CLI" - - - ">= 2.5x" "SKIP (no typst CLI)"
elif alternate "case" run_case_pdf run_case_typst; then
  r=$(ratio "$MED_B" "$MED_A")
  row "case PDF vs typst CLI" "${MED_A}s" "${MED_B}s" "${r}x" ">= 2.5x" "$(verdict ge "$r" 2.5)"
  say "   wall time per packet: blockprint $(awk -v t="$MED_A" -v n="$N" 'BEGIN{printf "%.1f", t*1000/n}') ms," \
    "typst CLI $(awk -v t="$MED_B" -v n="$N" 'BEGIN{printf "%.1f", t*1000/n}') ms ($PEER_JOBS processes at a time)"
else
  fail_tail
  row "case PDF vs typst CLI" - - - ">= 2.5x" "FAIL (a run failed)"
fi

# ---------- 1b. the ceiling of that ratio ----------
# The same pair with a template that sets only the case number on three pages: what is left is each side's
# cost outside the template (blockprint: rolling, files, manifest, merging; the CLI: process start, font
# loading, JSON parsing, export). Its ratio bounds row 1 from above, however cheap the real template gets.

say "== 1b. case packets (PDF) with an empty template, N=$N"
EMPTY_TEMPLATES="$WORK/empty-templates"
mkdir -p "$EMPTY_TEMPLATES/case"
cat >"$EMPTY_TEMPLATES/case/case.typ" <<'EOF2'
#let c = sys.inputs.case
#set text(font: "Courier Prime", size: 10pt)
#page[#metadata("gm")<bp-part> Case #c.case_number, GM file]
#page[GM file, page 2]
#page[#metadata("handout")<bp-part> Case #c.case_number, player handout]
EOF2
EMPTY_ENTRY="$WORK/empty-entry.typ"
{ printf '%s\n' '#let c = json(sys.inputs.case)'; tail -n +2 "$EMPTY_TEMPLATES/case/case.typ"; } >"$EMPTY_ENTRY"
run_empty_pdf() { rm -rf "$WORK/ea"; "$BIN" case --templates "$EMPTY_TEMPLATES" --seed $SEED --count "$N" --format pdf --out "$WORK/ea" --quiet --force; }
run_empty_typst() {
  rm -rf "$WORK/eb"; mkdir -p "$WORK/eb"
  printf '%s\0' "${CASE_JSONS[@]}" | REPO="$REPO" WORK="$WORK" ENTRY="$EMPTY_ENTRY" xargs -0 -n 1 -P "$PEER_JOBS" \
    bash -c 'typst compile --root "$REPO" --font-path "$REPO/fonts" --ignore-system-fonts --ignore-embedded-fonts \
      --input "case=/${1#"$REPO"/}" "$ENTRY" "$WORK/eb/$(basename "$1" .json).pdf"' _
}
if [ $CASE_OK = 0 ] || [ $HAVE_TYPST = 0 ]; then
  row "ceiling: empty template" - - - "(bounds row 1)" "SKIP"
elif alternate "empty" run_empty_pdf run_empty_typst; then
  r=$(ratio "$MED_B" "$MED_A")
  row "ceiling: empty template" "${MED_A}s" "${MED_B}s" "${r}x" "(bounds row 1)" "INFO"
else
  fail_tail
  row "ceiling: empty template" - - - "(bounds row 1)" "FAIL (a run failed)"
fi

# ---------- 1c. case packets: CPU per packet against typst alone ----------
# The same template and data through the typst compiler alone, every packet in one process (one compiler,
# its caches carried from packet to packet, as blockprint's engine does): what blockprint spends beyond it
# is its own work (rolling, data, forms, splitting the GM file from the handout, writing, hashing, merging).

say "== 1c. case packets: CPU per packet, blockprint against the typst compiler alone, N=$N"
if [ $CASE_OK = 0 ] || [ $HAVE_PYTYPST = 0 ] || [ $HAVE_TIME = 0 ]; then
  row "case CPU/packet vs typst" - - - "(ratio)" "SKIP"
  row "case CPU outside typst" - - - "<= 10%" "SKIP"
else
  A=(); B=()
  for ((r = 1; r <= ROUNDS; r++)); do
    rm -rf "$WORK/cpu-a"
    a=$(cpu "$BIN" case --seed $SEED --count "$N" --format pdf --out "$WORK/cpu-a" --quiet --force) || { A=(); break; }
    rm -rf "$WORK/cpu-b"; mkdir -p "$WORK/cpu-b"
    b=$(python3 "$REPO/scripts/typst-peer.py" "$REPO" "$REPO/fonts" "$(rel "$CASE_ENTRY")" "$WORK/cpu-b" \
      "case=${CASE_JSONS[0]}" "${CASE_JSONS[@]:1}" -- paper=a4 2>>"$LOG" | awk '/^typst-peer:/ { print $5 }') || { A=(); break; }
    [ -n "$b" ] || { A=(); break; }
    A+=("$a"); B+=("$b")
    say "  case CPU round $r: blockprint ${a}s, typst alone ${b}s"
  done
  if [ "${#A[@]}" -gt 0 ]; then
    a=$(median "${A[@]}"); b=$(median "${B[@]}")
    ma=$(awk -v t="$a" -v n="$N" 'BEGIN { printf "%.1f", t * 1000 / n }')
    mb=$(awk -v t="$b" -v n="$N" 'BEGIN { printf "%.1f", t * 1000 / n }')
    share=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (a - b) / a }')
    row "case CPU/packet vs typst" "${ma}ms" "${mb}ms" "$(ratio "$a" "$b")x" "(ratio)" "INFO"
    row "case CPU outside typst" - - "$(awk -v s="$share" 'BEGIN { printf "%.1f%%", s * 100 }')" "<= 10%" "$(verdict le "$share" 0.10)"
  else
    fail_tail
    row "case CPU outside typst" - - - "<= 10%" "FAIL (a run failed)"
  fi
fi

# ---------- 2. threads ----------

say "== 2. --jobs 1 vs --jobs 2, N=$N"
run_jobs() { rm -rf "$WORK/j$1"; "$BIN" case --seed $SEED --count "$N" --format pdf --out "$WORK/j$1" --quiet --force --jobs "$1"; }
run_jobs1() { run_jobs 1; }
run_jobs2() { run_jobs 2; }
if alternate "jobs" run_jobs1 run_jobs2; then
  r=$(ratio "$MED_A" "$MED_B")
  row "case --jobs 2 vs --jobs 1" "${MED_B}s" "${MED_A}s" "${r}x" ">= 1.7x" "$(verdict ge "$r" 1.7)"
else
  fail_tail
  row "case --jobs 2 vs --jobs 1" - - - ">= 1.7x" "FAIL (a run failed)"
fi

# ---------- 3. combined files' share ----------

say "== 3. time spent on the combined files (BLOCKPRINT_TIMINGS=1)"
if [ $HAVE_TYPST = 0 ] || [ $CASE_OK = 0 ]; then
  for ((i = 1; i <= ROUNDS; i++)); do run_case_pdf >>"$LOG" 2>&1 || break; done
fi
mapfile -t SHARES < <(awk '/^timings:/ {
    for (i = 1; i <= NF; i++) { if ($i == "items") items = $(i + 1); if ($i == "collect") coll = $(i + 1) }
    if (items + coll > 0) printf "%.4f\n", coll / (items + coll) }' "$WORK/timings-all.txt")
if [ "${#SHARES[@]}" -gt 0 ]; then
  share=$(median "${SHARES[@]}")
  pct=$(awk -v s="$share" 'BEGIN { printf "%.1f%%", s * 100 }')
  row "collect share of case run" - - "$pct" "<= 5%" "$(verdict le "$share" 0.05)"
else
  row "collect share of case run" - - - "<= 5%" "FAIL (no 'timings: case items … s, collect … s' line on stderr)"
fi

# ---------- 4. memory ----------

say "== 4. peak memory: --count $BIG vs --count 100"
peak_kb() { # OUT FORMATS COUNT
  rm -rf "$WORK/$1"
  /usr/bin/time -v "$BIN" case --seed $SEED --count "$3" --format "$2" --out "$WORK/$1" --quiet --force \
    2>"$WORK/time.txt" >>"$LOG" || { cat "$WORK/time.txt" >>"$LOG"; return 1; }
  rm -rf "${WORK:?}/$1"
  awk -F': *' '/Maximum resident set size/ { print $2 }' "$WORK/time.txt"
}
for fmt in pdf json,md; do
  name="peak RSS $fmt, $BIG vs 100"
  if [ $HAVE_TIME = 0 ]; then row "$name" - - - "<= 1.5x" "SKIP (no GNU time)"; continue; fi
  if small=$(peak_kb mem-small "$fmt" 100) && big=$(peak_kb mem-big "$fmt" "$BIG"); then
    r=$(ratio "$big" "$small")
    row "$name" "$((big / 1024)) MB" "$((small / 1024)) MB" "${r}x" "<= 1.5x" "$(verdict le "$r" 1.5)"
  else
    fail_tail
    row "$name" - - - "<= 1.5x" "FAIL (a run failed)"
  fi
done

# ---------- 5. SRD booklet ----------

say "== 5. SRD booklet"
SRD_ENTRY="$WORK/srd-entry.typ"
printf '%s\n' '#import "/templates/srd/srd-lib.typ": srd' '#srd(json(sys.inputs.data))' >"$SRD_ENTRY"
SRD_OK=0
if "$BIN" srd --format json,md --out "$WORK/srd-src" >>"$LOG" 2>&1 \
  || "$BIN" srd --format json --out "$WORK/srd-src" >>"$LOG" 2>&1; then
  [ -f "$WORK/srd-src/srd/block-by-block-srd.json" ] && SRD_OK=1
  [ -f "$WORK/srd-src/srd/block-by-block-srd.md" ] || "$BIN" srd --format md --out "$WORK/srd-src" >>"$LOG" 2>&1 || true
fi
run_srd() { rm -rf "$WORK/srd-a"; "$BIN" srd --format pdf --out "$WORK/srd-a" --quiet --force; }
run_srd_typst() { typst compile "${TYPST_FLAGS[@]}" --input "data=$(rel "$WORK/srd-src/srd/block-by-block-srd.json")" "$SRD_ENTRY" "$WORK/srd-typst.pdf"; }
run_srd_pandoc() { (cd "$WORK/srd-src/srd" && pandoc block-by-block-srd.md -o "$WORK/srd-pandoc.pdf" --pdf-engine=xelatex); }
if [ $SRD_OK = 0 ]; then
  fail_tail
  row "SRD PDF vs typst CLI" - - - "> 1x" "FAIL (blockprint srd --format json)"
elif [ $HAVE_TYPST = 0 ]; then
  row "SRD PDF vs typst CLI" - - - "> 1x" "SKIP (no typst CLI)"
elif alternate "srd/typst" run_srd run_srd_typst; then
  r=$(ratio "$MED_B" "$MED_A")
  row "SRD PDF vs typst CLI" "${MED_A}s" "${MED_B}s" "${r}x" "> 1x" "$(verdict gt "$r" 1)"
else
  fail_tail
  row "SRD PDF vs typst CLI" - - - "> 1x" "FAIL (a run failed)"
fi
if [ ! -f "$WORK/srd-src/srd/block-by-block-srd.md" ]; then
  row "SRD PDF vs pandoc+XeLaTeX" - - - ">= 4x" "FAIL (no block-by-block-srd.md)"
elif [ $HAVE_PANDOC = 0 ]; then
  row "SRD PDF vs pandoc+XeLaTeX" - - - ">= 4x" "SKIP (no pandoc/xelatex)"
elif alternate "srd/pandoc" run_srd run_srd_pandoc; then
  r=$(ratio "$MED_B" "$MED_A")
  row "SRD PDF vs pandoc+XeLaTeX" "${MED_A}s" "${MED_B}s" "${r}x" ">= 4x" "$(verdict ge "$r" 4)"
else
  fail_tail
  row "SRD PDF vs pandoc+XeLaTeX" - - - ">= 4x" "FAIL (a run failed)"
fi

# ---------- 6. build: wall time ----------

say "== 6. blockprint build: wall time from nothing (warm cache)"
BUILD6_CACHE="$WORK/build6-cache"
run_build() { rm -rf "$WORK/build"; BLOCKPRINT_CACHE="$BUILD6_CACHE" "$BIN" build --seed 7 --out "$WORK/build" --quiet --force; }
run_build >>"$LOG" 2>&1 || true   # fills the cache
BT=()
for ((i = 1; i <= ROUNDS; i++)); do
  if t=$(timed run_build); then BT+=("$t"); say "  build round $i: ${t}s"; else BT=(); break; fi
done
if [ "${#BT[@]}" -gt 0 ]; then
  t=$(median "${BT[@]}")
  row "build wall, warm cache" "${t}s" - "${t}s" "<= 3s" "$(verdict le "$t" 3)"
else
  fail_tail
  row "build wall, warm cache" - - - "<= 3s" "FAIL (a run failed)"
fi

# ---------- summary ----------

printf '\n%-30s %12s %12s %9s %9s  %s\n' "benchmark" "blockprint" "peer" "result" "target" "verdict"
printf '%s\n' "-------------------------------------------------------------------------------------------"
for r in "${ROWS[@]}"; do
  IFS='|' read -r n a b x t v <<<"$r"
  printf '%-30s %12s %12s %9s %9s  %s\n' "$n" "$a" "$b" "$x" "$t" "$v"
done
printf '\n(A = blockprint, B = peer; medians of %s alternating rounds; ratio = peer time / blockprint time,\n' "$ROUNDS"
printf ' or for threads jobs-1 time / jobs-2 time, for memory big / small.)\n'
exit 0
