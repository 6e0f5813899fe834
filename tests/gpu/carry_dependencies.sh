#!/usr/bin/env bash
# Prepares what the GPU check needs to build Kiln on a GPU machine that has PyTorch, nvcc, CMake
# and ninja but no network and none of Kiln's other build dependencies. Run it here, on a Debian
# 12 machine with Debian's archive and PyPI, from the repository root; it writes the git-ignored
# folder .gpu-carry/ (about 30 MB), which travels with the working tree to the GPU machine, where
# tests/gpu/check.sh picks it up.
#   .gpu-carry/prefix/  Debian's packages unpacked: SQLite, zlib, TurboJPEG, tcmalloc, simdjson, protobuf
#                       and protoc, ONNX's schema, cpp-httplib (with brotli), Gloo's headers
#                       (torch wheels leave them out), nlohmann-json, CLI11 and pkgconf,
#                       development files and shared libraries together.
#   .gpu-carry/opencv/  OpenCV core, imgproc and imgcodecs (PNG and JPEG only), built here from
#                       the opencv-python-headless sdist on PyPI: Debian's OpenCV pulls in GDAL
#                       and dozens of libraries more, far over what a call can carry.
# Downloads and the OpenCV build stay in ~/.cache/kiln/gpu-carry, so a re-run is quick.
set -euo pipefail
cd "$(dirname "$0")/../.."
carry="$PWD/.gpu-carry"
downloads="${KILN_CACHE:-$HOME/.cache/kiln}/gpu-carry"
rm -rf "$carry/prefix"
mkdir -p "$downloads" "$carry/prefix"

opencv_sdist_version=4.14.0.94
debian_packages=(
  libsqlite3-dev libsqlite3-0 zlib1g-dev zlib1g libturbojpeg0-dev libturbojpeg0 libtcmalloc-minimal4
  libsimdjson-dev libsimdjson14 libprotobuf-dev libprotobuf32 libprotobuf-lite32
  protobuf-compiler libprotoc32 libonnx-dev libonnx1 libonnxifi libcpp-httplib-dev libcpp-httplib0.11
  libbrotli1 libbrotli-dev libgloo-dev nlohmann-json3-dev libcli11-dev pkgconf pkgconf-bin libpkgconf3
)

(cd "$downloads" && apt-get download "${debian_packages[@]}" >/dev/null)
for deb in "$downloads"/*.deb; do
  dpkg-deb -x "$deb" "$carry/prefix"
done
rm -rf "$carry/prefix/usr/share/doc" "$carry/prefix/usr/share/man" "$carry/prefix/usr/share/lintian"
# Static libraries only a static link needs; ONNX's CMake package names its loader's.
find "$carry/prefix" -name '*.a' ! -name 'libonnxifi_loader.a' -delete
# Links to absolute paths (libz.so to /lib/...) point into the copy instead.
find "$carry/prefix" -type l -lname '/*' | while read -r link; do
  ln -sfr "$carry/prefix$(readlink "$link")" "$link"
done
# cpp-httplib's pkg-config file asks for OpenSSL's and brotli's development files, which only a
# static link needs; the GPU machine has OpenSSL 3's shared libraries.
sed -i '/^Requires.private:/d' "$carry/prefix/usr/lib/x86_64-linux-gnu/pkgconfig/cpp-httplib.pc"

if [ ! -e "$carry/opencv/lib/cmake/opencv4/OpenCVConfig.cmake" ]; then
  sdist="$downloads/opencv_python_headless-$opencv_sdist_version.tar.gz"
  # pip fetches the source distribution (it prepares its metadata, which needs only wheels).
  [ -e "$sdist" ] || python3 -m pip download -q --no-deps --no-binary opencv-python-headless \
    -d "$downloads" "opencv-python-headless==$opencv_sdist_version"
  source_dir="$downloads/opencv-source"
  rm -rf "$source_dir"
  mkdir -p "$source_dir"
  tar -xzf "$sdist" -C "$source_dir" --strip-components=2 \
    "opencv_python_headless-$opencv_sdist_version/opencv"
  cmake -S "$source_dir" -B "$downloads/opencv-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$carry/opencv" -DBUILD_LIST=core,imgproc,imgcodecs \
    -DBUILD_SHARED_LIBS=ON -DBUILD_ZLIB=ON -DBUILD_PNG=ON -DBUILD_JPEG=ON -DWITH_PNG=ON \
    -DWITH_JPEG=ON -DWITH_TIFF=OFF -DWITH_WEBP=OFF -DWITH_OPENEXR=OFF -DWITH_OPENJPEG=OFF \
    -DWITH_JASPER=OFF -DWITH_AVIF=OFF -DWITH_JPEGXL=OFF -DWITH_SPNG=OFF -DWITH_GDAL=OFF \
    -DWITH_GDCM=OFF -DWITH_IPP=OFF -DWITH_ITT=OFF -DWITH_OPENCL=OFF -DWITH_VA=OFF \
    -DWITH_LAPACK=OFF -DWITH_EIGEN=OFF -DWITH_TBB=OFF -DWITH_OPENMP=OFF -DWITH_PROTOBUF=OFF \
    -DWITH_GTK=OFF -DWITH_QT=OFF -DWITH_FFMPEG=OFF -DWITH_GSTREAMER=OFF -DWITH_V4L=OFF \
    -DWITH_1394=OFF -DWITH_ADE=OFF -DWITH_QUIRC=OFF -DWITH_CAROTENE=OFF -DWITH_KLEIDICV=OFF \
    -DWITH_FLATBUFFERS=OFF -DBUILD_TESTS=OFF -DBUILD_PERF_TESTS=OFF -DBUILD_EXAMPLES=OFF \
    -DBUILD_opencv_apps=OFF -DBUILD_DOCS=OFF -DBUILD_JAVA=OFF -DBUILD_opencv_python3=OFF \
    -DOPENCV_GENERATE_PKGCONFIG=OFF -DINSTALL_C_EXAMPLES=OFF -DCV_TRACE=OFF >/dev/null
  cmake --build "$downloads/opencv-build" --parallel "$(nproc)"
  cmake --install "$downloads/opencv-build" --strip >/dev/null
  rm -rf "$carry/opencv/share" "$carry/opencv/bin"
fi
echo "carried dependencies: $(du -sh "$carry" | cut -f1) in $carry"
