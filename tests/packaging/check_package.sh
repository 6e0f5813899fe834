#!/bin/bash
# Builds the Debian packages with CPack, unpacks them into an empty folder and runs what they
# hold from there with a bare environment: kiln --version, kiln info (LibTorch loads from the
# bundle), kiln-studio --version. Then checks the desktop entry, the AppStream metainfo, the
# MIME type and the man pages as installed, and the packages' relations.
#   check_package.sh CPACK BUILD_DIR VERSION WORK_DIR
set -euo pipefail
cpack=$1 build=$2 version=$3 work=$4

fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work/root"
trap 'rm -rf "$work"' EXIT

echo "== building the packages"
(cd "$build" && "$cpack" --config CPackConfig.cmake >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
# CPack's staging copy of the gigabytes of LibTorch is not needed once the packages exist.
rm -rf "$build/packages/_CPack_Packages"
kiln_deb="$build/packages/kiln_${version}_amd64.deb"
studio_deb="$build/packages/kiln-studio_${version}_amd64.deb"
[ -f "$kiln_deb" ] || fail "$kiln_deb was not built"
[ -f "$studio_deb" ] || fail "$studio_deb was not built"

echo "== package relations"
studio_depends=$(dpkg-deb -f "$studio_deb" Depends)
[[ "$studio_depends" == *"kiln (= $version)"* ]] || fail "kiln-studio does not depend on kiln (= $version): $studio_depends"
kiln_depends=$(dpkg-deb -f "$kiln_deb" Depends)
for needed in libopencv-core406 libsqlite3-0 libturbojpeg0; do
  [[ "$kiln_depends" == *"$needed"* ]] || fail "kiln does not depend on $needed: $kiln_depends"
done
[[ "$studio_depends" == *libqt6widgets6* ]] || fail "kiln-studio does not depend on Qt Widgets"
[ "$(dpkg-deb -f "$kiln_deb" Description | head -1)" = "pretrain, fine-tune and embed computer vision models" ] ||
  fail "kiln's synopsis: $(dpkg-deb -f "$kiln_deb" Description | head -1)"

echo "== unpacking into an empty folder"
dpkg-deb -x "$kiln_deb" "$work/root"
dpkg-deb -x "$studio_deb" "$work/root"
usr="$work/root/usr"

echo "== running from there with a bare environment"
bare=(env -i "PATH=/usr/bin:/bin")
out=$("${bare[@]}" "$usr/bin/kiln" --version) || fail "kiln --version exited with $?"
[ "$out" = "kiln $version" ] || fail "kiln --version printed '$out'"
out=$("${bare[@]}" "$usr/bin/kiln-studio" --version) || fail "kiln-studio --version exited with $?"
[ "$out" = "kiln-studio $version" ] || fail "kiln-studio --version printed '$out'"
info=$("${bare[@]}" "$usr/bin/kiln" info) || fail "kiln info exited with $?"
grep -q "^LibTorch " <<<"$info" || fail "kiln info does not name LibTorch: $info"
# The libraries come from the bundle, not from the build machine's Python environment.
libraries=$("${bare[@]}" LD_TRACE_LOADED_OBJECTS=1 "$usr/bin/kiln")
grep -q "=> $usr/bin/../lib/kiln/torch/lib/libtorch_cpu.so" <<<"$libraries" ||
  fail "kiln does not load LibTorch from the package: $(grep torch <<<"$libraries")"
if grep -E "not found|site-packages" <<<"$libraries"; then
  fail "kiln needs libraries from outside the package and Debian"
fi

echo "== desktop integration"
app=dev.kiln.KilnStudio
desktop-file-validate "$usr/share/applications/$app.desktop"
grep -q "^MimeType=application/x-kiln-project;" "$usr/share/applications/$app.desktop" ||
  fail "the desktop entry does not open *.kiln"
appstreamcli validate --no-net "$usr/share/metainfo/$app.metainfo.xml"
grep -q "<release version=\"$version\"" "$usr/share/metainfo/$app.metainfo.xml" ||
  fail "the metainfo does not list release $version"
for size in 32 256; do
  [ -f "$usr/share/icons/hicolor/${size}x${size}/apps/$app.png" ] || fail "no ${size}px icon"
done
# The MIME database that update-mime-database builds maps *.kiln to Kiln projects.
mkdir -p "$work/mime/packages"
cp "$usr/share/mime/packages/kiln-project.xml" "$work/mime/packages/"
update-mime-database "$work/mime"
grep -q "application/x-kiln-project:\*\.kiln" "$work/mime/globs2" || fail "*.kiln is not in globs2"

echo "== man pages"
for page in kiln kiln-studio; do
  man_file="$usr/share/man/man1/$page.1.gz"
  [ -f "$man_file" ] || fail "no man page $man_file"
done
zcat "$usr/share/man/man1/kiln.1.gz" | grep -q "train\\\\-object\\\\-detection" ||
  fail "kiln's man page does not list its commands"
echo "OK: packages for $version unpack and run"
