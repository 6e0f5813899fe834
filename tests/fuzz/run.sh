#!/usr/bin/env bash
# Runs each COCO fuzzer for SECONDS (default 60) from the seeds here and, when present, the
# COCO API fixture beside the project (read in place).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
fixtures="$here/../../../shared/fixtures/coco"
for target in fuzz_coco_json fuzz_rle; do
    corpus="$build/corpus-$target"
    mkdir -p "$corpus"
    seeds=("$here/seeds/${target#fuzz_}")
    if [ "$target" = fuzz_coco_json ] && [ -d "$fixtures" ]; then
        seeds+=("$fixtures")
    fi
    echo "== $target for $seconds s"
    "$build/$target" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len=1048576 -artifact_prefix="$build/$target-" \
        -rss_limit_mb=4096 -print_final_stats=1 2>&1 | grep -E "^(#[0-9]+ +DONE|stat::|SUMMARY|==[0-9]+==ERROR)" || true
done
