#!/usr/bin/env bash
# Writes LICENSE-fonts: the licence of every font compiled into the binary (fonts/<family>/LICENSE), one after
# another, for the release archives, the crate and the container image, which ship the binary without the
# fonts/ folder. `--check` only compares: it fails, naming this script, when LICENSE-fonts is out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

render() {
    cat <<'HEAD'
Fonts compiled into blockprint

The blockprint binary carries the fonts below and embeds subsets of them in the PDFs it writes. Each is
licensed under the SIL Open Font License, Version 1.1; the copyright notice and licence of each follow,
exactly as they sit beside the font files in the source (fonts/<family>/LICENSE). fonts/README.md in the
source names each font's version and where it came from.
HEAD
    local dir
    for dir in fonts/*/; do
        dir=${dir%/}
        [ -f "$dir/LICENSE" ] || { echo "error: $dir has no LICENSE file" >&2; exit 1; }
        local files=() f
        for f in "$dir"/*; do
            [ "${f##*/}" = LICENSE ] || files+=("${f##*/}")
        done
        printf '\n%s\n%s: %s\n%s\n\n' \
            "==============================================================================" \
            "$dir" "${files[*]}" \
            "=============================================================================="
        cat "$dir/LICENSE"
    done
}

if [ "${1:-}" = "--check" ]; then
    if ! render | cmp -s - LICENSE-fonts; then
        echo "error: LICENSE-fonts does not match fonts/*/LICENSE; run scripts/font-licences.sh and commit it" >&2
        exit 1
    fi
    echo "LICENSE-fonts matches fonts/*/LICENSE"
else
    render > LICENSE-fonts
fi
