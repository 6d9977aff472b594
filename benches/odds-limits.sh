#!/bin/sh
# Peak memory and CPU time of `blockprint odds` on the worst cases of its limits (issue 27, item 14):
# the widest and deepest distributions the work budget accepts, in text and in JSON. Every accepted
# expression should stay within 256 MB and 1 s of CPU (user + system); one beyond the budget is refused
# at once. Prints one line per case: the expression, the exit status, CPU seconds, peak resident KB and
# the bytes written. Not a test: timings depend on the machine.
#
#   benches/odds-limits.sh [path/to/blockprint]
set -u
BP=${1:-target/release/blockprint}
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
    echo "needs GNU time at $TIME" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-28s %-6s %4s %8s %10s %10s\n' expression format exit cpu_s peak_kb bytes
for expr in 25d4000 30d3000 20d5000 12d10000 50d4000 200d1000 3d10000! 4d1000!kh2 8d100!dl2 \
    '60d6!cs>=6' '1d10000*1d20' '2d5000*2d20' 100d6kh50 1000d6 '25d4000*2'; do
    for fmt in text json; do
        if [ "$fmt" = json ]; then set -- --json; else set --; fi
        "$TIME" -f '%U %S %M' -o "$tmp/time" "$BP" odds "$expr" "$@" >"$tmp/out" 2>/dev/null
        code=$?
        read -r user sys kb <<END
$(tail -n 1 "$tmp/time")
END
        cpu=$(echo "$user + $sys" | bc)
        printf '%-28s %-6s %4s %8s %10s %10s\n' "$expr" "$fmt" "$code" "$cpu" "$kb" "$(wc -c <"$tmp/out")"
    done
done
