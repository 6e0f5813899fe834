#!/usr/bin/env bash
# Runs each fuzzer built in BUILD_DIR for SECONDS (default 60) from the seeds here and, for the
# COCO parser, the COCO API fixture beside the project when present (read in place). Exits
# non-zero when a fuzzer finds a crash, a sanitizer report, a leak or a time-out; the input that
# caused it is left as BUILD_DIR/TARGET-crash-* (or leak-*, timeout-*) to reproduce with
# `BUILD_DIR/TARGET FILE`.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
fixtures="$here/../../../shared/fixtures/coco"
# LibTorch's libraries are not instrumented; their allocations are matched as ASan sees them.
export ASAN_OPTIONS=${ASAN_OPTIONS:-alloc_dealloc_mismatch=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/lsan.supp}
found=0
for target in fuzz_coco_json fuzz_rle fuzz_torch_file; do
    if [ ! -x "$build/$target" ]; then
        echo "== $target: not built (the torch.save reader's needs KILN_PYTHON)"
        continue
    fi
    corpus="$build/corpus-$target"
    mkdir -p "$corpus"
    seeds=("$here/seeds/${target#fuzz_}")
    if [ "$target" = fuzz_coco_json ] && [ -d "$fixtures" ]; then
        seeds+=("$fixtures")
    fi
    echo "== $target for $seconds s"
    log="$build/$target.log"
    status=0
    "$build/$target" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len=1048576 \
        -timeout=20 -artifact_prefix="$build/$target-" -rss_limit_mb=4096 -print_final_stats=1 \
        >"$log" 2>&1 || status=$?
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|SUMMARY|==[0-9]+==ERROR)" "$log" || true
    if [ "$status" -ne 0 ]; then
        echo "== $target FAILED (exit $status); see $log"
        tail -n 40 "$log"
        found=1
    fi
done
exit "$found"
