#!/usr/bin/env bash
# Lavapipe, Mesa's Vulkan driver on the CPU, for the GPU backend's tests where no GPU is (issue 21):
# mesa-vulkan-drivers 25 from bookworm-backports (Dawn refuses Debian 12's mesa 22: "Vulkan
# shaderUniform*ArrayDynamicIndexing required"), unpacked under .cache/lavapipe with the two
# libraries it needs newer than Debian 12's, so that the system's Mesa (ParaView's, chromium's
# GL) stays as it is. vitest.config.ts runs the 'gpu' project on it when it is there, else on
# chromium's SwiftShader. Prints the ICD file; exits non-zero when lavapipe cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/.cache/lavapipe"
icd="$dest/lvp_icd.json"
libs="$dest/root/usr/lib/x86_64-linux-gnu"

missing() {
  LD_LIBRARY_PATH="$libs" ldd "$libs/libvulkan_lvp.so" "$libs"/libgallium-*.so 2>/dev/null |
    awk '/not found/ { print $1 }' | sort -u
}

if [ ! -f "$icd" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  chmod 755 "$work"
  mkdir -p "$work/sources" "$work/lists/partial"
  cat >"$work/sources/backports.sources" <<SOURCES
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  # only the backports list, kept in the work folder: the system's sources are not changed
  apt=(-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$work/sources"
    -o Dir::State::Lists="$work/lists")
  apt-get "${apt[@]}" update -qq
  (cd "$work" && apt-get "${apt[@]}" download -qq mesa-vulkan-drivers mesa-libgallium libdrm2 2>/dev/null)
  rm -rf "$dest"
  mkdir -p "$dest/root"
  for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$dest/root"; done
  [ -f "$libs/libvulkan_lvp.so" ] || { echo "lavapipe: libvulkan_lvp.so not in the packages" >&2; exit 1; }
  printf '{"ICD":{"api_version":"1.3.0","library_path":"%s"},"file_format_version":"1.0.0"}\n' \
    "$libs/libvulkan_lvp.so" >"$icd"
fi

# the rest of its libraries are Debian 12's own (LLVM 15, libxcb, ...): Mesa 22's Vulkan driver
# package depends on the same set
if [ -n "$(missing)" ]; then
  echo "lavapipe: installing what it links to: $(missing | tr '\n' ' ')" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mesa-vulkan-drivers >/dev/null
  [ -z "$(missing)" ] || { echo "lavapipe: still missing $(missing | tr '\n' ' ')" >&2; exit 1; }
fi
echo "$icd"
