#!/usr/bin/env bash
# Kiln's GPU check: run on a machine with an NVIDIA GPU, from the repository root, in at most
# 8 minutes. It builds the headless engine and CLI against that machine's own PyTorch (its
# python3's torch wheel, 2.11 or newer, with nvcc beside it) and then checks:
#   1. SimCLR on cuda in 32-true, bf16-mixed and 16-mixed: 200 steps each whose losses track
#      the CPU run's (same data, seed and settings);
#   2. data_wait with a loader slowed on purpose (one worker, large sources) within 3 points of
#      the share that the GPU step time of a fast-fed run predicts;
#   3. kiln embed on cuda equal to the CPU's within float tolerance;
#   4. NVML's utilisation and memory in metrics.jsonl against nvidia-smi;
#   5. images/s of ResNet-50 SimCLR at 224 px, batch 256, bf16-mixed and 16-mixed, next to
#      PyTorch eager doing the same step on the same GPU (tests/gpu/eager_simclr.py).
# Build dependencies that the machine lacks (OpenCV, SQLite, protobuf, ...) are taken from
# .gpu-carry/, which tests/gpu/carry_dependencies.sh prepares on a machine with Debian's archive
# and PyPI; name it in the call's carry. KILN_GPU_PREFIX names another unpacked prefix.
# Output: a report on stdout; with $OUT set, the runs' metrics are copied there too.
# KILN_GPU_CHECK_ACCELERATOR=cpu runs the same steps on the CPU, smaller and without the NVML
# and throughput parts: a rehearsal of the script itself on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
build="${KILN_GPU_BUILD:-build-gpu}"
python="${KILN_GPU_PYTHON:-python3}"
accelerator="${KILN_GPU_CHECK_ACCELERATOR:-cuda}"
epochs=6
[ "$accelerator" = cuda ] || epochs=1
report() { echo "[$((SECONDS - started)) s] $*"; }
failures=0
# compare LABEL ARGS...: reports tests/gpu/compare_runs.py's line and counts it when it fails.
compare() {
  local label=$1 line
  shift
  if line="$("$python" tests/gpu/compare_runs.py "$@")"; then
    report "$label: $line"
  else
    report "$label: $line"
    failures=$((failures + 1))
  fi
}

# Build dependencies the machine lacks come from .gpu-carry/ (made here by
# tests/gpu/carry_dependencies.sh and carried along), or from KILN_GPU_PREFIX.
carried="$PWD/.gpu-carry"
prefix="${KILN_GPU_PREFIX:-}"
[ -z "$prefix" ] && [ -d "$carried/prefix" ] && prefix="$carried/prefix"
prefix_args=()
if [ -n "$prefix" ]; then
  libdir="$prefix/usr/lib/x86_64-linux-gnu"
  # Debian's pkg-config files name /usr; point them at the unpacked copy.
  pkgconfig="$PWD/$build-pkgconfig"
  mkdir -p "$pkgconfig"
  for pc in "$libdir"/pkgconfig/*.pc "$prefix"/usr/share/pkgconfig/*.pc; do
    [ -e "$pc" ] && sed -E "s#^([a-z_]+)=/usr#\1=$prefix/usr#" "$pc" >"$pkgconfig/$(basename "$pc")"
  done
  export PKG_CONFIG_PATH="$pkgconfig"
  export PATH="$PATH:$prefix/usr/bin"
  export LD_LIBRARY_PATH="$libdir:$prefix/lib/x86_64-linux-gnu:$carried/opencv/lib:${LD_LIBRARY_PATH:-}"
  prefix_args=(-DCMAKE_PREFIX_PATH="$carried/opencv;$prefix/usr" -DCMAKE_LIBRARY_PATH="$libdir"
               -DCMAKE_INCLUDE_PATH="$prefix/usr/include")
fi
report "torch $("$python" -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available() and torch.cuda.get_device_name(0))')"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKILN_BUILD_GUI=OFF \
  -DKILN_BUILD_TESTS=OFF -DKILN_PYTHON="$(command -v "$python")" "${prefix_args[@]}" >/dev/null
if ! cmake --build "$build" --parallel "$(nproc)" --target kiln >"$build/build.log" 2>&1; then
  grep -v '^\[' "$build/build.log" | tail -40
  exit 1
fi
kiln="$build/bin/kiln"
report "built $("$kiln" --version)"
"$kiln" info

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" tests/gpu/make_images.py "$work/images" 2048 64
"$python" tests/gpu/make_images.py "$work/big" 2560 256

common=(data="$work/images" model=smallcnn method=simclr batch_size=64 epochs="$epochs" seed=1
        transform_args.image_size=[64,64] num_workers=8 overwrite=true loggers.tensorboard=null)
"$kiln" train out="$work/cpu" accelerator=cpu precision=32-true "${common[@]}" >/dev/null
report "cpu 32-true: $("$python" tests/gpu/compare_runs.py --throughput "$work/cpu") img/s"
precisions=(32-true bf16-mixed 16-mixed)
[ "$accelerator" = cuda ] || precisions=(32-true bf16-mixed)
for precision in "${precisions[@]}"; do
  "$kiln" train out="$work/$accelerator-$precision" accelerator="$accelerator" devices=1 \
    precision="$precision" \
    "${common[@]}" >/dev/null
  compare "$accelerator $precision" "$work/cpu" "$work/$accelerator-$precision"
done

# data_wait: the same GPU step fed by a loader slowed on purpose (one worker, 256 px sources)
# and by a fast one; the fast run's GPU step time against the slow run's cycle gives the share
# the slow run should report.
for speed in slow:1 fast:12; do
  "$kiln" train out="$work/${speed%%:*}" accelerator="$accelerator" devices=1 precision=bf16-mixed \
    num_workers="${speed##*:}" data="$work/big" model=smallcnn method=simclr batch_size=64 \
    epochs=1 transform_args.image_size=[64,64] overwrite=true loggers.tensorboard=null >/dev/null
done
if [ "$accelerator" = cuda ]; then
  compare "slowed loader" --data-wait "$work/slow" "$work/fast"
else # on the CPU the loader and the step share the cores, so the prediction does not hold
  report "slowed loader (not judged on the cpu): $("$python" tests/gpu/compare_runs.py --data-wait "$work/slow" "$work/fast" || true)"
fi

for device in cpu "$accelerator"; do
  "$kiln" embed out="$work/embed-$device.pt" data="$work/images" image_size=64 \
    checkpoint="$work/$accelerator-32-true/exported_models/exported_last.pt" \
    accelerator="$device" format=torch overwrite=true >/dev/null
done
compare embed --embeddings "$work/embed-cpu.pt" "$work/embed-$accelerator.pt"
if [ "$accelerator" != cuda ]; then
  report "rehearsal on $accelerator done, $failures comparison(s) failed (NVML and throughput need a GPU)"
  exit $((failures > 0))
fi
compare nvml --nvml "$work/cuda-32-true"

for precision in bf16-mixed 16-mixed; do
  "$kiln" train out="$work/r50-$precision" accelerator=cuda devices=1 precision="$precision" \
    data="$work/big" model=resnet50 method=simclr batch_size=256 epochs=1 num_workers=12 \
    overwrite=true loggers.tensorboard=null >/dev/null
  kiln_rate="$("$python" tests/gpu/compare_runs.py --throughput "$work/r50-$precision")"
  eager_rate="$("$python" tests/gpu/eager_simclr.py --precision "$precision" --batch 256 --size 224)"
  report "resnet50 simclr 224 px batch 256 $precision: kiln $kiln_rate img/s, pytorch eager $eager_rate img/s"
done
if [ -n "${OUT:-}" ]; then
  for run in "$work"/cuda-* "$work"/r50-*; do
    cp "$run/metrics.jsonl" "$OUT/$(basename "$run").jsonl"
  done
fi
report "done, $failures comparison(s) failed"
exit $((failures > 0))
