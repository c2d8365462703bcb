#!/bin/sh
# install_e2e.sh — libvkautotune as an outside C program sees it: cmake --install into a temporary prefix, then the
# documented example (examples/library_devices.c, docs/library.md) built once with pkg-config (vkautotune.pc) and
# once as a CMake project with find_package(vkautotune) (vkautotune::vkautotune), each run on the installed
# gemm space: it lists the devices, tunes a few configurations into a database and compiles the winner.
#   sh install_e2e.sh BUILD_DIR CC
set -u
BUILD=$1 CC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-lib.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
P=$T/prefix
failed=0
fail() { echo "FAIL: $*"; failed=1; }

cmake --install "$BUILD" --prefix "$P" >"$T/install.out" 2>&1 || { cat "$T/install.out"; echo "FAIL: install"; exit 1; }
for f in include/vkautotune.h lib/libvkautotune.a lib/pkgconfig/vkautotune.pc \
         lib/cmake/vkautotune/vkautotuneConfig.cmake share/doc/vkautotune/examples/library_devices.c \
         share/doc/vkautotune/examples/library.md; do
    [ -e "$P/$f" ] || fail "not installed: $f"
done
[ $failed -eq 0 ] || exit 1
# The installed header stands alone: nothing but itself and the C library.
printf '#include <vkautotune.h>\nint main(void) { return vkat_version() == VKAT_VERSION ? 0 : 1; }\n' >"$T/hdr.c"
"$CC" -std=c99 -Wall -Wextra -Werror -I"$P/include" -c "$T/hdr.c" -o "$T/hdr.o" || fail "the header alone does not compile"

EX=$P/share/doc/vkautotune/examples/library_devices.c
SPACE=$P/share/vkautotune/spaces/gemm.ini
run_example() { # NAME BINARY
    mkdir -p "$T/$1" && rm -f "$T/$1/example.db"
    (cd "$T/$1" && "$2" "$SPACE" M=64,N=64,K=64 >"$T/$1.out" 2>&1) || { cat "$T/$1.out"; fail "the $1 example exited $?"; return; }
    cat "$T/$1.out"
    grep -q '^libvkautotune [0-9]' "$T/$1.out" || fail "the $1 example printed no version"
    grep -q '^tuned sgemm at M=64,N=64,K=64: 3 evaluated' "$T/$1.out" || fail "the $1 example tuned nothing"
    best=$(sed -n 's/^best: \([^,]*=[^ ]*\), median .*/\1/p' "$T/$1.out")
    [ -n "$best" ] || fail "the $1 example found no winner"
    grep -q "^compiled $best: [1-9][0-9]* SPIR-V words" "$T/$1.out" || fail "the $1 example did not compile its winner"
    [ -s "$T/$1/example.db" ] || fail "the $1 example wrote no database"
}

# pkg-config.
if command -v pkg-config >/dev/null 2>&1; then
    flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs vkautotune) || fail "pkg-config"
    # shellcheck disable=SC2086
    "$CC" -std=c99 -Wall -Wextra "$EX" $flags -o "$T/pc_example" >"$T/pc_build.out" 2>&1 \
        || { cat "$T/pc_build.out"; fail "the pkg-config build"; }
    [ -x "$T/pc_example" ] && run_example pkg-config "$T/pc_example"
else
    fail "pkg-config is missing (tools/setup.sh installs it)"
fi

# find_package(vkautotune), as an outside CMake project.
mkdir -p "$T/proj"
cp "$EX" "$T/proj/"
cat >"$T/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(library_devices LANGUAGES C)
find_package(vkautotune 0.1 REQUIRED)
add_executable(library_devices library_devices.c)
target_link_libraries(library_devices PRIVATE vkautotune::vkautotune)
CM
cmake -S "$T/proj" -B "$T/proj/build" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" >"$T/cfg.out" 2>&1 \
    || { cat "$T/cfg.out"; fail "configuring the outside project"; exit 1; }
cmake --build "$T/proj/build" >"$T/build.out" 2>&1 || { cat "$T/build.out"; fail "building the outside project"; exit 1; }
run_example cmake "$T/proj/build/library_devices"

[ $failed -eq 0 ] && echo "library install_e2e: ok"
exit $failed
