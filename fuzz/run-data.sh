#!/bin/sh
# The 1 M `data` run (README, Fuzzing): one job at nice 10, the corpus in corpus/data, crashes in
# artifacts/data, the log in logs/data-<commit>.log (ignored by git). It runs a copy of the fuzz build
# (target/run/data), so rebuilding meanwhile leaves the run alone. Build first:
# RUSTC_BOOTSTRAP=1 cargo fuzz build -s none data
cd "$(dirname "$0")" || exit 2
mkdir -p corpus/data artifacts/data logs target/run
cp target/x86_64-unknown-linux-gnu/release/data target/run/data || exit 2
log="logs/data-$(git rev-parse --short HEAD).log"
exec > "$log" 2>&1
date -u +"start %Y-%m-%dT%H:%M:%SZ"
echo "corpus $(ls corpus/data | wc -l) inputs"
BLOCKPRINT_FUZZ_STATS=10000 /usr/bin/time -v nice -n 10 target/run/data \
  -artifact_prefix=artifacts/data/ corpus/data seeds/data -runs=1000000 -timeout=60 -rss_limit_mb=2048 \
  -print_final_stats=1
echo "exit $?"
echo "corpus $(ls corpus/data | wc -l) inputs"
date -u +"end %Y-%m-%dT%H:%M:%SZ"
