#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo` runs this with the commroof binary as $1: a tour of what commroof
# does on the embedded default topology. Each step prints the command it runs
# so the output can be reproduced by hand. Later parts of commroof add steps.
set -eu
CR=${1:?usage: tools/demo.sh PATH/TO/commroof}
cd "$(dirname "$0")/.."

step() {
    printf '\n$ commroof %s\n' "$*"
    "$CR" "$@"
}

echo "== commroof demo: the shipped topologies, then the default one (hgx-h200-8) in detail"
step topo list
step topo show hgx-h200-8

echo
echo "== your own machine: run any NCCL job with NCCL_TOPO_DUMP_FILE=dump.xml, then"
echo "   commroof topo import-nccl dump.xml -o mine.xml. Here with a VM dump from the tests:"
demo_dir=$(mktemp -d)
trap 'rm -rf "$demo_dir"' EXIT
step topo import-nccl tests/fixtures/nccl/hgx-h200-vm.xml -o "$demo_dir/vm.xml"
