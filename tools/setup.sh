#!/bin/sh
# Sets up a fresh Debian 12 machine and builds vkautotune into build/ (Release).
# Installs the Debian packages the build and the tests need (lavapipe, Mesa's CPU Vulkan driver, the Khronos
# validation layer the layer tests run under, Chromium for the HTML report's browser test, and Slurm + munge for
# the cluster test, which starts its own daemons),
# brings new-enough glslang/SPIRV-Tools/Vulkan headers/volk (tools/fetch-deps.sh), then configures and builds.
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release), CI=true adds -Werror,
# VKAT_SANITIZE=ON builds with ASan + UBSan.
set -eu
cd "$(dirname "$0")/.."
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

pkgs="cmake make gcc g++ clang pkg-config ca-certificates mesa-vulkan-drivers libvulkan1 libinih-dev
      libsqlite3-dev libjson-c-dev libxxhash-dev python3 chromium slurmctld slurmd munge slurm-client
      valgrind vulkan-validationlayers"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi

tools/fetch-deps.sh

build=${BUILD_DIR:-build}
werror=OFF
[ "${CI:-}" = true ] && werror=ON
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DVKAT_WERROR=$werror \
      -DVKAT_SANITIZE="${VKAT_SANITIZE:-OFF}"
cmake --build "$build" -j "$(nproc)"
echo "setup: built $build/vkautotune"
