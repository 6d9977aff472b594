#!/bin/sh
# The 1 M `data` run (README, Fuzzing; its log to logs/, ignored by git): one job, nice 19, the corpus in corpus/data, crashes in artifacts/data.
cd "$(dirname "$0")"
date -u +"start %Y-%m-%dT%H:%M:%SZ"
BLOCKPRINT_FUZZ_STATS=10000 /usr/bin/time -v nice -n 19 target/run/data -artifact_prefix=artifacts/data/ \
  corpus/data seeds/data -runs=1000000 -timeout=60 -rss_limit_mb=2048 -print_final_stats=1
echo "exit $?"
date -u +"end %Y-%m-%dT%H:%M:%SZ"
