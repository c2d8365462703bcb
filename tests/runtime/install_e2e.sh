#!/bin/sh
# install_e2e.sh — the installed package as an outside project sees it: cmake --install into a temporary prefix,
# tune and export with the installed vkautotune and its installed spaces, then build the installed example with
# find_package(vkautotune) (vkautotune::runtime) and again with pkg-config, and run both on the loader's device;
# the man page and bash completion are in place, and CPack makes a .deb holding the same files.
#   sh install_e2e.sh BUILD_DIR CC
set -u
BUILD=$1 CC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-inst.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
P=$T/prefix
failed=0
fail() { echo "FAIL: $*"; failed=1; }

cmake --install "$BUILD" --prefix "$P" >"$T/install.out" 2>&1 || { cat "$T/install.out"; echo "FAIL: install"; exit 1; }
for f in bin/vkautotune include/vkautotune_runtime.h lib/libvkautotune-runtime.a lib/libvkautotune-runtime.so \
         lib/pkgconfig/vkautotune-runtime.pc lib/cmake/vkautotune/vkautotuneConfig.cmake \
         share/man/man1/vkautotune.1 share/bash-completion/completions/vkautotune \
         share/doc/vkautotune/examples/gemm_runtime.c share/vkautotune/spaces/gemm.ini; do
    [ -e "$P/$f" ] || fail "not installed: $f"
done
"$P/bin/vkautotune" --version | grep -q 'built with glslang [0-9]' || fail "--version names no glslang version"
bash -c ". '$P/share/bash-completion/completions/vkautotune' && complete -p vkautotune" >/dev/null 2>&1 \
    || fail "the bash completion does not load"

if ! "$P/bin/vkautotune" devices >/dev/null 2>&1; then
    echo "SKIPPED: no Vulkan device to run the example on (the install itself was checked)"
    [ $failed -eq 0 ] && exit 77
    exit 1
fi
S=$P/share/vkautotune
"$P/bin/vkautotune" "$S/shaders/gemm.comp.in" --space "$S/spaces/gemm.ini" --problem M=64,N=64,K=64 --budget 3 \
    --db "$T/t.db" -q --warmup 0.01 --repetitions 3 >"$T/tune.out" 2>&1 || { cat "$T/tune.out"; fail "tune"; exit 1; }
"$P/bin/vkautotune" export --db "$T/t.db" --space "$S/spaces/gemm.ini" -o "$T/out" --header my-kernels.h -q \
    || { fail "export"; exit 1; }

# find_package(vkautotune), as an outside CMake project.
cmake -S "$P/share/doc/vkautotune/examples" -B "$T/ex" -DCMAKE_PREFIX_PATH="$P" -DVKAT_EXPORT_DIR="$T/out" \
    -DVKAT_KERNELS_HEADER=my-kernels.h -DCMAKE_C_COMPILER="$CC" >"$T/cfg.out" 2>&1 \
    || { cat "$T/cfg.out"; fail "configuring the outside project"; exit 1; }
cmake --build "$T/ex" >"$T/build.out" 2>&1 || { cat "$T/build.out"; fail "building the outside project"; exit 1; }
"$T/ex/gemm_runtime" --repetitions 3 --warmup 0 >"$T/run.out" 2>&1 || fail "the CMake-built example exited $?"
cat "$T/run.out"
grep -q '^check: ok' "$T/run.out" || fail "the CMake-built example's result is wrong"

# pkg-config, linking the shared library.
if command -v pkg-config >/dev/null 2>&1; then
    flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs vkautotune-runtime) || fail "pkg-config"
    # shellcheck disable=SC2086
    "$CC" -std=c99 -I"$T/out" -DVKAT_KERNELS_HEADER='"my-kernels.h"' -DVKAT_KERNELS_TABLE=my_kernels \
        "$P/share/doc/vkautotune/examples/gemm_runtime.c" $flags -ldl -lm -o "$T/pc_example" || fail "pkg-config build"
    LD_LIBRARY_PATH=$P/lib "$T/pc_example" --repetitions 3 --warmup 0 >"$T/pc.out" 2>&1 || fail "pkg-config example exited $?"
    grep -q '^check: ok' "$T/pc.out" || { cat "$T/pc.out"; fail "the pkg-config example's result is wrong"; }
else
    fail "pkg-config is missing (tools/setup.sh installs it)"
fi

# The .deb.
if command -v cpack >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
    (cd "$T" && cpack --config "$BUILD/CPackConfig.cmake" -B "$T/pkg" >"$T/cpack.out" 2>&1) \
        || { cat "$T/cpack.out"; fail "cpack"; }
    deb=$(ls "$T"/pkg/*.deb 2>/dev/null | head -n 1)
    if [ -z "$deb" ]; then
        fail "cpack made no .deb"
    else
        dpkg-deb -c "$deb" >"$T/deb.list"
        for f in ./usr/bin/vkautotune ./usr/include/vkautotune_runtime.h ./usr/share/man/man1/vkautotune.1 \
                 ./usr/lib/cmake/vkautotune/vkautotuneConfig.cmake; do
            grep -q " $f\$" "$T/deb.list" || fail "the .deb lacks $f"
        done
        dpkg-deb -f "$deb" Depends | grep -q libvulkan1 || fail "the .deb does not depend on libvulkan1"
    fi
else
    fail "cpack or dpkg-deb is missing"
fi

[ $failed -eq 0 ] && echo "install_e2e: ok"
exit $failed
