#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the Debian packages commroof's build, tests and charts need; installs
# the missing ones when run as root, otherwise prints the exact line to run.
set -u
missing=""
pkg-config --exists libxml-2.0 || missing="$missing libxml2-dev"
pkg-config --exists jansson || missing="$missing libjansson-dev"
pkg-config --exists cmocka || missing="$missing libcmocka-dev"
pkg-config --exists zlib || missing="$missing zlib1g-dev"
command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
command -v clang >/dev/null 2>&1 || missing="$missing clang"
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config $missing"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
        { apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends $missing >/dev/null; } ||
        { echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
else
    echo "deps: missing packages. Run:" >&2
    echo "  sudo apt-get install -y$missing" >&2
    exit 1
fi
