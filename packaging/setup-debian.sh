#!/usr/bin/env bash
# Installs everything Kiln needs to build, run and test on Debian 12.
# Idempotent: when every package is already installed it returns at once.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libtorch-dev libgloo-dev
  # Debian's LibTorch calls the BLAS behind the libblas.so.3 alternative: without OpenBLAS that
  # is the reference BLAS, which made DINO's heads 17x slower.
  libopenblas0-pthread
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6sql6-sqlite libgl-dev
  libqcustomplot-dev libqcustomplot2.1-qt6
  libopencv-dev libturbojpeg0-dev libsqlite3-dev zlib1g-dev nlohmann-json3-dev libcli11-dev libsimdjson-dev
  libprotobuf-dev protobuf-compiler libcpp-httplib-dev
  dataset-fashion-mnist
  # Tests prove that PyTorch reads what Kiln writes (exported models, embeddings).
  python3-torch python3-torchvision python3-numpy
  # A real COCO file (ids from 0) for the COCO evaluator's tests.
  labelme-examples
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

echo "setup: installing ${missing[*]}"
# Update the package lists only when they are missing or a package is not found.
if ! "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; then
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
