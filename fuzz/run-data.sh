#!/bin/sh
# The 1 M `data` run (README, Fuzzing): one job at nice 19, the corpus in corpus/data, crashes in
# artifacts/data, the log in logs/data-1M.log (ignored by git). Build first:
# RUSTC_BOOTSTRAP=1 cargo fuzz build -s none data
cd "$(dirname "$0")" || exit 2
mkdir -p corpus/data artifacts/data logs
exec > logs/data-1M.log 2>&1
date -u +"start %Y-%m-%dT%H:%M:%SZ"
BLOCKPRINT_FUZZ_STATS=10000 /usr/bin/time -v nice -n 19 target/x86_64-unknown-linux-gnu/release/data \
  -artifact_prefix=artifacts/data/ corpus/data seeds/data -runs=1000000 -timeout=60 -rss_limit_mb=2048 \
  -print_final_stats=1
echo "exit $?"
date -u +"end %Y-%m-%dT%H:%M:%SZ"
