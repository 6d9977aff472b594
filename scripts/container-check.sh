#!/usr/bin/env bash
# The container image and the README's Kubernetes Job array, checked on this machine with podman (or docker:
# CONTAINER=docker). Run by hand, like scripts/release-check.sh; `.ci/run` does not run it.
#  1. Builds the image from Dockerfile with BLOCKPRINT_COMMIT set to HEAD. The build context is a clone of
#     HEAD in a scratch folder (as .dockerignore filters it), so uncommitted changes are not part of it.
#  2. The image runs as a numeric non-root user (what `runAsNonRoot` needs), `--version` names HEAD's commit,
#     and `check` passes.
#  3. The Job array of README.md, read from the README itself (the YAML block that holds `kind: Job`): each of
#     its `completions` pods runs as Kubernetes would start it: the container's `command` and `args` as
#     written, JOB_COMPLETION_INDEX=k, one shared volume at the `mountPath`, `parallelism` pods at a time.
#  4. The parts hold the whole batch, `completions` × `--count` case folders numbered 1 … N without a gap,
#     and a sample of them is byte-identical to the same case made on its own (`--first-number n --count 1`).
#
#   scripts/container-check.sh
#   CONTAINER_CHECK_SAMPLE=50 scripts/container-check.sh   # case folders compared (default 30)
#   CONTAINERS_CONF=/path/containers.conf scripts/container-check.sh
#
# The last form is for a host where podman's defaults cannot start a container. On the 2-core VM this was
# written on, crun refuses its hybrid cgroups and podman's default rlimits exceed what the VM allows, so it
# ran with a containers.conf holding `[containers] default_ulimits = ["nofile=20000:20000",
# "nproc=4096:4096"]` and `[engine] runtime = "runc"`.
#
# Exits non-zero on the first failure, naming it; prints each step's time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKOUT=$PWD
ENGINE=${CONTAINER:-podman}
SAMPLE=${CONTAINER_CHECK_SAMPLE:-30}
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
COMMIT=$(git rev-parse --short=12 HEAD)
IMAGE=localhost/blockprint:$VERSION
VOLUME=blockprint-container-check-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/blockprint-container-check.XXXXXX")
cleanup() {
    "$ENGINE" volume rm -f "$VOLUME" > /dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
TIMES=()
STEP_START=$(date +%s)
step() {
    local now; now=$(date +%s)
    [ -n "${STEP_NAME:-}" ] && TIMES+=("$(printf '%5ss  %s' $((now - STEP_START)) "$STEP_NAME")")
    STEP_NAME=$1; STEP_START=$now
    echo "== $1"
}

step "$ENGINE build ($IMAGE, commit $COMMIT)"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "note: the checkout has uncommitted changes; they are not part of this check"
fi
git clone --quiet --no-hardlinks "$CHECKOUT" "$WORK/src"
cd "$WORK/src"
COMMIT=$(git rev-parse --short=12 HEAD)   # HEAD may have moved since the step's title
"$ENGINE" build --quiet --build-arg "BLOCKPRINT_COMMIT=$COMMIT" -t "$IMAGE" . > "$WORK/image-id"
"$ENGINE" image inspect "$IMAGE" --format '{{.Size}}' | awk '{ printf "image size: %.0f MB\n", $1 / 1e6 }'

step "the image: non-root, --version, check"
USER_SPEC=$("$ENGINE" image inspect "$IMAGE" --format '{{.Config.User}}')
[[ $USER_SPEC =~ ^[1-9][0-9]*(:[0-9]+)?$ ]] || fail "the image's user is '$USER_SPEC', not a numeric non-root id"
ID=$("$ENGINE" run --rm --entrypoint /usr/bin/id "$IMAGE" -u)
[ "$ID" != 0 ] || fail "the container runs as root"
V=$("$ENGINE" run --rm "$IMAGE" --version)
echo "$V (uid $ID)"
[[ $V =~ ^blockprint\ $VERSION\ \(commit\ $COMMIT(\ with\ local\ changes)?,\ content\ [0-9a-f]{12}\)$ ]] \
    || fail "--version printed '$V'"
"$ENGINE" run --rm "$IMAGE" check

step "the README's Job array"
# The Job manifest as the README prints it, and what each pod would run.
python3 - README.md > "$WORK/job.json" <<'PY' || fail "README.md holds no Job manifest this script can read"
import json, re, sys, yaml
text = open(sys.argv[1]).read()
jobs = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "kind: Job" in b]
assert len(jobs) == 1, f"{len(jobs)} Job manifests"
job = jobs[0]
spec = job["spec"]
assert spec["completionMode"] == "Indexed"
pod = spec["template"]["spec"]
(c,) = pod["containers"]
(mount,) = c["volumeMounts"]
assert pod["securityContext"]["runAsNonRoot"] is True
json.dump({"completions": spec["completions"], "parallelism": spec["parallelism"],
           "command": c.get("command", []), "args": c.get("args", []), "mount": mount["mountPath"]}, sys.stdout)
PY
get() { python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))[sys.argv[2]]; print(v if isinstance(v, (int, str)) else json.dumps(v))' "$WORK/job.json" "$1"; }
COMPLETIONS=$(get completions) PARALLELISM=$(get parallelism) MOUNT=$(get mount)
mapfile -t COMMAND < <(python3 -c 'import json, sys; [print(a) for a in json.load(open(sys.argv[1]))["command"]]' "$WORK/job.json")
mapfile -t ARGS < <(python3 -c 'import json, sys; [print(a) for a in json.load(open(sys.argv[1]))["args"]]' "$WORK/job.json")
echo "$COMPLETIONS pods, $PARALLELISM at a time, volume at $MOUNT: ${COMMAND[*]} '${ARGS[*]}'"
"$ENGINE" volume create "$VOLUME" > /dev/null
# The volume belongs to root when created; a cluster gives it to the pod's group (fsGroup: 10001).
"$ENGINE" run --rm --user 0 --entrypoint /bin/chown -v "$VOLUME:$MOUNT" "$IMAGE" 10001:10001 "$MOUNT"
START=$(date +%s)
running=()
for ((k = 0; k < COMPLETIONS; k++)); do
    "$ENGINE" run --rm -e "JOB_COMPLETION_INDEX=$k" -v "$VOLUME:$MOUNT" \
        --entrypoint "${COMMAND[0]}" "$IMAGE" "${COMMAND[@]:1}" "${ARGS[@]}" > "$WORK/pod-$k.log" 2>&1 &
    running+=($!)
    if [ ${#running[@]} -ge "$PARALLELISM" ]; then
        wait "${running[0]}" || { cat "$WORK"/pod-*.log >&2; fail "a pod failed"; }
        running=("${running[@]:1}")
    fi
done
for pid in "${running[@]}"; do wait "$pid" || { cat "$WORK"/pod-*.log >&2; fail "a pod failed"; }; done
echo "the Job's pods took $(( $(date +%s) - START )) s"

step "the parts are one batch"
# Copy the volume out, as the image's user, into a folder it may write.
mkdir -p "$WORK/out" && chmod 0777 "$WORK/out"
"$ENGINE" run --rm --entrypoint /bin/cp -v "$VOLUME:$MOUNT" -v "$WORK/out:/copy" "$IMAGE" -R "$MOUNT/." /copy/
python3 - "$WORK/out" "$WORK/job.json" "$SAMPLE" > "$WORK/sample.txt" <<'PY' || fail "the parts are not one batch"
import json, os, random, re, sys
out, job, sample = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
args = " ".join(job["args"])
seed = int(re.search(r"--seed (\d+)", args).group(1))
count = int(re.search(r"--count (\d+)", args).group(1))
n = job["completions"] * count
numbers = {}
for k in range(job["completions"]):
    cases = os.path.join(out, f"part-{k}", "cases")
    for d in os.listdir(cases):
        if os.path.isdir(os.path.join(cases, d)):
            year, num = d.split("-")   # <year>-<number>: the campaign year, then the case's number
            assert int(num) not in numbers, f"case {d} twice"
            numbers[int(num)] = os.path.join(f"part-{k}", "cases", d)
assert sorted(numbers) == list(range(1, n + 1)), f"{len(numbers)} cases, not 1..{n}"
print(f"{n} cases, 1 … {n}, each once", file=sys.stderr)
rng = random.Random(seed)
for num in sorted(rng.sample(range(1, n + 1), min(sample, n)) + [1, n]):
    print(num, numbers[num], seed)
PY
YEAR_CASES=$(get args | python3 -c 'import re, sys; print(re.search(r"--year-cases (\d+)", sys.stdin.read()).group(1))')
while read -r num dir seed; do
    mkdir -p "$WORK/alone/$num" && chmod 0777 "$WORK/alone/$num"
    "$ENGINE" run --rm -v "$WORK/alone/$num:/work" "$IMAGE" case --seed "$seed" --year-cases "$YEAR_CASES" \
        --first-number "$num" --count 1 --out out --quiet
    name=$(basename "$dir")
    diff -r "$WORK/out/$dir" "$WORK/alone/$num/out/cases/$name" > /dev/null || fail "case $name differs from the same case made alone"
done < <(sort -un "$WORK/sample.txt")
echo "$(sort -un "$WORK/sample.txt" | wc -l) case folders byte-identical to the same case made alone"
step "done"
printf '%s\n' "${TIMES[@]}"
echo "container check passed: $V"
