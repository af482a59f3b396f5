#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the Debian packages commroof's build, tests and charts need; installs
# the missing ones when run as root, otherwise prints the exact line to run.
#
#   tools/deps.sh           everything make test and make demo need (install as root)
#   tools/deps.sh --check   only what building needs (the libraries' headers);
#                           prints the apt-get line, installs nothing (plain make)
set -u
check=0
[ "${1:-}" = --check ] && check=1
missing=""
pkg-config --exists libxml-2.0 2>/dev/null || missing="$missing libxml2-dev"
pkg-config --exists jansson 2>/dev/null || missing="$missing libjansson-dev"
pkg-config --exists zlib 2>/dev/null || missing="$missing zlib1g-dev"
if [ $check = 0 ]; then
    pkg-config --exists cmocka || missing="$missing libcmocka-dev"
    command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
    command -v clang >/dev/null 2>&1 || missing="$missing clang"
fi
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config $missing"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && [ $check = 0 ]; then
    echo "deps: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
        { apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends $missing >/dev/null; } ||
        { echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
else
    echo "deps: missing packages. Run:" >&2
    echo "  sudo apt-get install -y$missing" >&2
    [ $check = 1 ] && echo "  (or make test / make deps as root, which install them)" >&2
    exit 1
fi
