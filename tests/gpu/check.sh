#!/usr/bin/env bash
# Kiln's GPU check: run on a machine with an NVIDIA GPU, from the repository root, in at most
# 8 minutes. It builds the headless engine and CLI against that machine's own PyTorch (its
# python3's torch wheel, 2.11 or newer, with nvcc beside it) and then checks, most important
# first, so that a run cut short still has its first verdicts:
#   1. the GPU list (`kiln info`, the probe Studio's accelerator list shows) against nvidia-smi;
#   2. SimCLR on cuda in 32-true, bf16-mixed and 16-mixed: 192 steps each whose losses track
#      the CPU run's (same data, seed and settings);
#   3. kiln embed on cuda equal to the CPU's within float tolerance;
#   4. NVML's utilisation and memory in metrics.jsonl against nvidia-smi;
#   5. the distributed path (NCCL) in a world of one, as torchrun --nproc_per_node=1 starts it;
#   6. images/s of ResNet-50 SimCLR at 224 px, batch 256, bf16-mixed and 16-mixed, next to
#      PyTorch eager doing the same step on the same GPU (tests/gpu/eager_simclr.py), with the
#      data_wait of Kiln's loader feeding it from JPEGs with the machine's cores;
#   7. data_wait with loaders slowed on purpose (one and two workers, large sources) within 3
#      points of the share that the GPU step time of a fast-fed run predicts.
# A failed step is reported with its log's end and the script goes on with the next.
# Build dependencies that the machine lacks (OpenCV, SQLite, protobuf, ...) are taken from
# .gpu-carry/, which tests/gpu/carry_dependencies.sh prepares on a machine with Debian's archive
# and PyPI; name it in the call's carry. KILN_GPU_PREFIX names another unpacked prefix.
# Output: a report on stdout; with $OUT set, $OUT/runs.tar.gz holds every run's metrics.jsonl,
# train.log and output, and the build log; a kiln built here comes back stripped as $OUT/kiln.
# KILN_GPU_KILN names a kiln already built against the same torch version (the rehearsal's,
# stripped): the checks run it first and the build here comes last, while time is left
# (KILN_GPU_BUILD_BEFORE seconds into the script, default 300).
# KILN_GPU_CHECK_ACCELERATOR=cpu runs the same steps on the CPU, smaller and without the NVML,
# NCCL and throughput parts: a rehearsal of the script itself on a machine without a GPU.
set -uo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
build="${KILN_GPU_BUILD:-build-gpu}"
python="${KILN_GPU_PYTHON:-python3}"
accelerator="${KILN_GPU_CHECK_ACCELERATOR:-cuda}"
epochs=6
[ "$accelerator" = cuda ] || epochs=1
report() { echo "[$((SECONDS - started)) s] $*"; }
failures=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Keeps what a failure needs to be understood: every run's metrics, log and output.
save_runs() {
  [ -n "${OUT:-}" ] || return 0
  (cd "$work" && find . -maxdepth 2 \( -name metrics.jsonl -o -name train.log -o -name '*.out' \) \
    -print0 | tar -czf "$OUT/runs.tar.gz" --null -T - "$OLDPWD/$build/build.log" 2>/dev/null)
}

# compare LABEL ARGS...: reports tests/gpu/compare_runs.py's line and counts it when it fails.
compare() {
  local label=$1 line
  shift
  if line="$("$python" tests/gpu/compare_runs.py "$@" 2>&1)"; then
    report "$label: $line"
  else
    report "$label: ${line:-no figures}"
    failures=$((failures + 1))
  fi
}

# kiln NAME ARGS...: runs `kiln ARGS...` with its output in $work/NAME.out; on failure reports
# the output's end, counts it and returns 1.
kiln() {
  local name=$1
  shift
  if "$kiln_binary" "$@" >"$work/$name.out" 2>&1; then
    return 0
  fi
  report "$name FAILED: kiln $1 exited with an error; its output ends:"
  tail -15 "$work/$name.out" | sed 's/^/    /'
  failures=$((failures + 1))
  save_runs
  return 1
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
torch_lib="$("$python" -c 'import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec("torch").origin), "lib"))')"
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:$torch_lib"

# Torch's CMake package needs nvcc; a machine's own toolkit is often off the PATH.
if ! command -v nvcc >/dev/null; then
  for cuda_bin in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    [ -x "$cuda_bin/nvcc" ] && export PATH="$PATH:$cuda_bin" && break
  done
fi

# build_kiln: configures and builds the headless kiln in $build; on failure shows the errors.
build_kiln() {
  mkdir -p "$build"
  if cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKILN_BUILD_GUI=OFF \
    -DKILN_BUILD_TESTS=OFF -DKILN_PYTHON="$(command -v "$python")" "${prefix_args[@]}" \
    >"$build/build.log" 2>&1 &&
    cmake --build "$build" --parallel "$(nproc)" --target kiln >>"$build/build.log" 2>&1; then
    return 0
  fi
  grep -v '^\[' "$build/build.log" | tail -40
  return 1
}

# KILN_GPU_KILN: a kiln built elsewhere against the same torch version (the rehearsal's), which
# saves the build's minutes of device time; it is then built here at the end, time allowing.
kiln_binary="${KILN_GPU_KILN:-}"
if [ -n "$kiln_binary" ] && "$kiln_binary" --version >/dev/null 2>&1; then
  report "using $kiln_binary ($("$kiln_binary" --version)), built elsewhere against torch $("$python" -c 'import torch; print(torch.__version__.split("+")[0])')"
else
  [ -n "$kiln_binary" ] && report "$kiln_binary does not run here; building"
  build_kiln || { save_runs; exit 1; }
  kiln_binary="$build/bin/kiln"
  report "built $("$kiln_binary" --version)"
  [ -n "${OUT:-}" ] && strip -o "$OUT/kiln" "$kiln_binary"
fi

# 1. The GPU list: Studio's accelerator list shows the same probe.
"$kiln_binary" info | sed 's/^/    /'
if [ "$accelerator" = cuda ]; then
  smi="$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits -i 0)"
  listed="$("$kiln_binary" info | grep -m1 '^  cuda:0 ')"
  listed_mb="$(sed -nE 's/.*, ([0-9]+) MiB.*/\1/p' <<<"$listed")"
  smi_mb="${smi##*, }"
  difference=x
  [[ "$listed_mb" =~ ^[0-9]+$ && "$smi_mb" =~ ^[0-9]+$ ]] && difference=$((listed_mb - smi_mb))
  if [[ "$listed" == *"${smi%%,*}"* && "$difference" =~ ^-?[0-2]$ ]]; then
    report "gpu list: '$listed' matches nvidia-smi '$smi': ok"
  else
    report "gpu list: '$listed' against nvidia-smi '$smi': MISMATCH"
    failures=$((failures + 1))
  fi
fi

"$python" tests/gpu/make_images.py "$work/images" 2048 64
"$python" tests/gpu/make_images.py "$work/big" 2560 256

# 2. The precisions against the CPU's losses.
common=(data="$work/images" model=smallcnn method=simclr batch_size=64 epochs="$epochs" seed=1
        transform_args.image_size=[64,64] num_workers=8 overwrite=true loggers.tensorboard=null)
if kiln cpu train out="$work/cpu" accelerator=cpu precision=32-true "${common[@]}"; then
  report "cpu 32-true: $("$python" tests/gpu/compare_runs.py --throughput "$work/cpu") img/s"
fi
precisions=(32-true bf16-mixed 16-mixed)
[ "$accelerator" = cuda ] || precisions=(32-true bf16-mixed)
for precision in "${precisions[@]}"; do
  name="$accelerator-$precision"
  kiln "$name" train out="$work/$name" accelerator="$accelerator" devices=1 \
    precision="$precision" "${common[@]}" &&
    compare "$name" "$work/cpu" "$work/$name"
done
save_runs

# 3. Embeddings of the cuda-trained backbone on both devices.
checkpoint="$work/$accelerator-32-true/exported_models/exported_last.pt"
if [ -e "$checkpoint" ]; then
  for device in cpu "$accelerator"; do
    kiln "embed-$device" embed out="$work/embed-$device.pt" data="$work/images" image_size=64 \
      checkpoint="$checkpoint" accelerator="$device" format=torch overwrite=true
  done
  compare embed --embeddings "$work/embed-cpu.pt" "$work/embed-$accelerator.pt"
fi

if [ "$accelerator" = cuda ]; then
  # 4. NVML against nvidia-smi.
  [ -e "$work/cuda-32-true/metrics.jsonl" ] && compare nvml --nvml "$work/cuda-32-true"

  # 5. The distributed path in a world of one, as torchrun --nproc_per_node=1 starts it.
  RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29517 \
    kiln ddp train out="$work/ddp" accelerator=cuda devices=1 precision=bf16-mixed "${common[@]}" &&
    compare "ddp (nccl, world of one)" --distributed "$work/cpu" "$work/ddp"
  save_runs

  # 6. ResNet-50 throughput against eager, fed from JPEGs by the default loader.
  for precision in bf16-mixed 16-mixed; do
    kiln "r50-$precision" train out="$work/r50-$precision" accelerator=cuda devices=1 \
      precision="$precision" data="$work/big" model=resnet50 method=simclr batch_size=256 \
      epochs=3 overwrite=true loggers.tensorboard=null || continue
    eager="$("$python" tests/gpu/eager_simclr.py --precision "$precision" --batch 256 --size 224)"
    compare "resnet50 simclr 224 px batch 256 $precision" --against-eager "$eager" 256 \
      "$work/r50-$precision"
  done
  save_runs
fi

# 7. data_wait: the same GPU step fed by loaders slowed on purpose (one and two workers, 256 px
# sources) and by a fast one; the fast run's GPU step time against a slowed run's cycle gives
# the share the slowed run should report. The step is long enough (ResNet-18, 2 x 128 views of
# 128 px) that kernel launches, exposed when a starved GPU has drained, hardly lengthen it.
wait_size=128
[ "$accelerator" = cuda ] || wait_size=32 # a rehearsal's CPU steps take long enough
for speed in slow:1 slowish:2 fast:14; do
  kiln "${speed%%:*}" train out="$work/${speed%%:*}" accelerator="$accelerator" devices=1 \
    precision=bf16-mixed num_workers="${speed##*:}" data="$work/big" model=resnet18 \
    method=simclr batch_size=128 epochs=1 transform_args.image_size=[$wait_size,$wait_size] \
    overwrite=true loggers.tensorboard=null
done
for slowed in slow slowish; do
  [ -e "$work/$slowed/metrics.jsonl" ] && [ -e "$work/fast/metrics.jsonl" ] || continue
  if [ "$accelerator" = cuda ]; then
    compare "$slowed loader" --data-wait "$work/$slowed" "$work/fast"
  else # on the CPU the loader and the step share the cores, so the prediction does not hold
    report "$slowed loader (not judged on the cpu): $("$python" tests/gpu/compare_runs.py --data-wait "$work/$slowed" "$work/fast" || true)"
  fi
done
save_runs
# The build against this machine's PyTorch, when the checks ran a kiln built elsewhere.
if [ -n "${KILN_GPU_KILN:-}" ] && [ "$kiln_binary" = "$KILN_GPU_KILN" ]; then
  if [ $((SECONDS - started)) -lt "${KILN_GPU_BUILD_BEFORE:-300}" ]; then
    if build_kiln; then
      report "built here against this machine's torch: $("$build/bin/kiln" --version)"
    else
      report "the build against this machine's torch FAILED"
      failures=$((failures + 1))
    fi
  else
    report "no time left to build against this machine's torch"
  fi
fi
if [ "$accelerator" != cuda ]; then
  report "rehearsal on $accelerator done, $failures step(s) failed (NVML, NCCL and throughput need a GPU)"
else
  report "done, $failures step(s) failed"
fi
exit $((failures > 0))
