#!/bin/sh
# Brings glslang, SPIRV-Tools, the Vulkan headers and volk new enough for cooperative matrices and bf16
# (glslang >= 15.3, headers >= 1.4.311, SPIRV-Tools >= 2025.1) into .deps/usr, unless the system already has them.
# Debian 12's own packages are too old, so the binary packages of Debian unstable are downloaded and unpacked into
# the prefix, never over the system. apt uses this machine's own mirror configuration: the temporary sources list
# takes its URIs from there. Downloads are cached in .deps/debs, so a second run only checks versions.
set -eu
cd "$(dirname "$0")/.."
prefix=.deps
suite=${VKAT_DEPS_SUITE:-sid}
pkgs="glslang-dev spirv-tools-dev spirv-tools-headers spirv-headers libvulkan-dev libvulkan-volk-dev"

# Minimum versions the code needs (not exact versions: unstable moves on).
min_glslang=15.3
min_vulkan=1.4.311
min_spirv_tools=2025.1
min_volk=1.3.250

system_is_new_enough() {
    for pv in glslang-dev:$min_glslang spirv-tools-dev:$min_spirv_tools libvulkan-dev:$min_vulkan \
              libvulkan-volk-dev:$min_volk; do
        p=${pv%%:*} want=${pv#*:}
        have=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null) || return 1
        [ -n "$have" ] && dpkg --compare-versions "$have" ge "$want" || return 1
    done
}

if [ "${VKAT_USE_SYSTEM_DEPS:-}" = 1 ] || system_is_new_enough; then
    echo "fetch-deps: using the system's glslang, SPIRV-Tools, Vulkan headers and volk"
    rm -rf "$prefix/usr"
    exit 0
fi

if [ -f "$prefix/stamp" ] && [ "$(cat "$prefix/stamp")" = "$suite $pkgs" ] && [ -d "$prefix/usr/include/glslang" ]; then
    echo "fetch-deps: $prefix/usr is up to date ($(cat "$prefix/versions"))"
    exit 0
fi

uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 !~ /^\[/ {print $2; exit} $1 == "deb" && $2 ~ /^\[/ {print $3; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || { echo "fetch-deps: no Debian mirror found in /etc/apt; install glslang >= $min_glslang, SPIRV-Tools >= $min_spirv_tools, Vulkan headers >= $min_vulkan and volk yourself and set VKAT_USE_SYSTEM_DEPS=1" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$prefix/debs"
cat > "$work/deps.sources" <<EOS
Types: deb
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
o="-oDir::Etc::SourceList=$work/deps.sources -oDir::Etc::SourceParts=/dev/null -oDir::State::Lists=$work/lists -oDir::Cache=$work/cache -oAPT::Architecture=amd64 -oAPT::Sandbox::User=root -qq"
echo "fetch-deps: reading the $suite package list"
apt-get $o update
rm -f "$prefix"/debs/*.deb
(cd "$prefix/debs" && apt-get $o download $pkgs)
rm -rf "$prefix/usr"
for f in "$prefix"/debs/*.deb; do dpkg-deb -x "$f" "$prefix"; done
versions=""
for f in "$prefix"/debs/*.deb; do versions="$versions $(dpkg-deb -f "$f" Package)=$(dpkg-deb -f "$f" Version)"; done
echo "${versions# }" > "$prefix/versions"
echo "$suite $pkgs" > "$prefix/stamp"
echo "fetch-deps: unpacked into $prefix/usr:$versions"
