#!/usr/bin/env bash
# Installs everything Kiln needs to build, run and test on Debian 12: Debian's packages, and a
# Python virtual environment with the official torch wheel from PyPI (Kiln builds against the
# LibTorch inside it). Idempotent and cheap to re-run: packages already installed are skipped,
# and the environment is reused while packaging/requirements-torch.txt is unchanged.
#
#   setup-debian.sh               install what is missing
#   setup-debian.sh --venv-path   print where the environment lives (KILN_VENV overrides it)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
requirements="$here/requirements-torch.txt"
torch_pin="$(sed -n 's/^torch==//p' "$requirements")"
# Outside the clone, so that a fresh clone (CI's) reuses it.
venv="${KILN_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/venv-torch-$torch_pin}"

if [ "${1:-}" = "--venv-path" ]; then
  echo "$venv"
  exit 0
fi

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  # The torch wheel ships c10d's Gloo process group but not Gloo's headers.
  libgloo-dev
  python3 python3-venv
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6sql6-sqlite libgl-dev
  qt6-translations-l10n
  libqcustomplot-dev libqcustomplot2.1-qt6
  libopencv-dev libturbojpeg0-dev libsqlite3-dev zlib1g-dev nlohmann-json3-dev libcli11-dev libsimdjson-dev
  # malloc for every Kiln program: a CPU training step in 0.5-0.7 of glibc's memory.
  libtcmalloc-minimal4
  libprotobuf-dev protobuf-compiler libcpp-httplib-dev
  # kiln export format=onnx: ONNX's protobuf schema, generated for Debian's protobuf.
  libonnx-dev
  dataset-fashion-mnist
  # A real COCO file (ids from 0) for the COCO evaluator's tests.
  labelme-examples
  # make package: the man page from --help, and the checks of the desktop entry, the AppStream
  # metainfo and the MIME type.
  help2man desktop-file-utils appstream libxml2-utils shared-mime-info dpkg-dev
  # make fuzz (and make test, briefly): libFuzzer and the sanitizers come with clang.
  clang-14 libclang-rt-14-dev
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  # Update the package lists only when they are missing or a package is not found.
  if ! "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; then
    "${sudo_cmd[@]}" apt-get update -q
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
fi

# The environment is complete when its stamp holds the requirements it was built from.
stamp="$venv/kiln-requirements.txt"
if [ -f "$stamp" ] && cmp -s "$stamp" "$requirements"; then
  exit 0
fi
# An environment of the same torch pin is brought up to date in place (pip installs only what
# it lacks: a test-side package added to the requirements costs seconds, not a new torch).
if [ -x "$venv/bin/python" ]; then
  echo "setup: updating the Python environment $venv"
else
  echo "setup: creating the Python environment $venv (torch $torch_pin from PyPI)"
  python="${KILN_SETUP_PYTHON:-python3}"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-cache-dir -r "$requirements"
# The CUDA wheels name their libraries by soname only; CMake's CUDA lookup wants the plain names.
cuda_root="$("$venv/bin/python" "$here/../cmake/torch_paths.py" cuda-root)"
for library in "$cuda_root"/lib/lib*.so.*; do
  plain="${library%%.so.*}.so"
  [ -e "$plain" ] || ln -s "$(basename "$library")" "$plain"
done
cp "$requirements" "$stamp"
