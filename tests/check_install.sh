#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install PREFIX=...` as a user meets it: installs into a temporary
# prefix, then builds a small program against the installed pkg-config file
# (shared library, and the static one with --static), runs both, and checks
# that every installed header compiles on its own with the file's Cflags,
# in C and in C++ (-Wold-style-cast), that a C++ program links against both
# libraries, that the archive's global names are the .so's exports, that
# the .so carries its SONAME, and that `make uninstall` (PREFIX, DESTDIR)
# removes what install wrote.
# The program opens the shipped hgx-h200-8 and prints its GPU count and the
# GPU 0 -> 1 route: 8 GPUs; 18 x 25 GB/s of NVLink + 63 GB/s of PCIe Gen5
# (the pair figure, README `topo show`) = 513 GB/s.
set -u
B=${BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "check_install: $*"; fails=$((fails + 1)); }

if ! make --no-print-directory BUILD="$B" install PREFIX="$T/prefix" >"$T/log" 2>&1; then
    cat "$T/log"; echo "check_install: make install failed"; exit 1
fi
for f in bin/commroof lib/libcommroof.a lib/libcommroof.so lib/pkgconfig/commroof.pc \
    include/commroof/topo.h include/commroof/commroof_nvtx.h \
    share/commroof/python/commroof_nvtx.py share/commroof/topologies/commroof-topology.dtd \
    share/commroof/topologies/hgx-h200-8.xml; do
    [ -f "$T/prefix/$f" ] || fail "$f was not installed"
done

# Both libraries export the cr_ API only: a program linking either meets
# none of the internals' names (the static archive had 98 such globals,
# algo_nccl_est_s, chart_write_script, txml_get ...; issue 18 item 4).
for lib in libcommroof.a libcommroof.so; do
    leaked=$(nm -g --defined-only "$T/prefix/lib/$lib" 2>/dev/null | awk 'NF == 3 && $3 !~ /^cr_/ {print $3}' |
        sort -u)
    [ -z "$leaked" ] || fail "$lib exports names outside the cr_ API: $(echo $leaked | cut -c1-200)"
done
[ -n "$(nm -g --defined-only "$T/prefix/lib/libcommroof.a" | awk 'NF == 3 && $3 ~ /^cr_topo_open$/')" ] ||
    fail "libcommroof.a does not define cr_topo_open"
# The archive's globals are the shared library's exports, name for name: a
# cr_ name that no installed header declares (cr_chart_*, cr_sbuf_*,
# cr_maxflow_* ...: 139 of them, kept by a cr_* wildcard, QA audit) is
# hidden in the .so and must be local in the .a too.
nm -g --defined-only "$T/prefix/lib/libcommroof.a" | awk 'NF == 3 {print $3}' | sort -u >"$T/a.syms"
nm -D --defined-only "$T/prefix/lib/libcommroof.so" | awk 'NF == 3 {print $3}' | sort -u >"$T/so.syms"
only_a=$(comm -23 "$T/a.syms" "$T/so.syms")
only_so=$(comm -13 "$T/a.syms" "$T/so.syms")
[ -z "$only_a" ] ||
    fail "libcommroof.a defines $(echo "$only_a" | wc -l) global name(s) libcommroof.so does not export: $(echo $only_a | cut -c1-200)"
[ -z "$only_so" ] ||
    fail "libcommroof.so exports $(echo "$only_so" | wc -l) name(s) libcommroof.a does not define: $(echo $only_so | cut -c1-200)"

export PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig"
# The SAN=1 pass installs an instrumented library: programs linking it need
# the same runtime.
SANF=""
nm "$B/libcommroof.a" 2>/dev/null | grep -q __asan && SANF="-fsanitize=address,undefined"

cat >"$T/tiny.c" <<'EOF'
#include <stdio.h>

#include <route.h>
#include <topo_xml.h>
#include <units.h>

int main(void)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    if (cr_topo_open("hgx-h200-8", &t, &d) != CR_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return 1;
    }
    char bw[32];
    printf("%d GPUs, 0->1 %s\n", t->n_gpus,
           cr_units_format(cr_route_bw_Bps(t, 0, 1), CR_UNIT_BANDWIDTH, bw, sizeof bw));
    cr_topo_free(t);
    return 0;
}
EOF
want="8 GPUs, 0->1 513GB/s"
CF=$(pkg-config --cflags commroof) || fail "pkg-config --cflags commroof"
if cc -std=c11 -Wall -Wextra -Werror $SANF $CF "$T/tiny.c" -o "$T/tiny" \
    $(pkg-config --libs commroof) 2>"$T/err"; then
    got=$(LD_LIBRARY_PATH="$T/prefix/lib" "$T/tiny" 2>&1)
    [ "$got" = "$want" ] || fail "shared: got \"$got\", expected \"$want\""
else
    cat "$T/err"; fail "cannot build against the shared library"
fi
# Static: the archive by path (the .so sits beside it), then what
# pkg-config --static adds after -lcommroof.
STATIC_LIBS=$(pkg-config --static --libs commroof | sed 's/-lcommroof//')
if cc -std=c11 $SANF $CF "$T/tiny.c" -o "$T/tiny-static" "$T/prefix/lib/libcommroof.a" \
    $STATIC_LIBS 2>"$T/err"; then
    got=$("$T/tiny-static" 2>&1)
    [ "$got" = "$want" ] || fail "static: got \"$got\", expected \"$want\""
else
    cat "$T/err"; fail "cannot build against the static library"
fi
for h in "$T"/prefix/include/commroof/*.h; do
    printf '#include "%s"\n' "$(basename "$h")" >"$T/h.c"
    cc -std=c11 -Wall -Wextra -Werror -fsyntax-only $CF "$T/h.c" 2>"$T/err" ||
        { cat "$T/err"; fail "$(basename "$h") does not compile on its own"; }
    cp "$T/h.c" "$T/h.cc"
    c++ -std=c++11 -Wall -Wextra -Wold-style-cast -Werror -fsyntax-only $CF "$T/h.cc" 2>"$T/err" ||
        { cat "$T/err"; fail "$(basename "$h") does not compile on its own as C++"; }
done
# commroof_nvtx.h's functions have bodies only with nvtx3 on the include
# path: there, C++ callers with -Wold-style-cast (clang++ and g++) met its
# C casts, (size_t)n (QA audit: 5 errors with clang++ -Werror).
CUDA=${CUDA_HOME:-/usr/local/cuda}
if [ -f "$CUDA/include/nvtx3/nvToolsExt.h" ]; then
    cat >"$T/nvtx.cc" <<'EOF'
#include <commroof_nvtx.h>

int main()
{
    commroof_nvtx_push("gemm", "m=%d n=%d k=%d dtype=bf16", 64, 32, 16);
    return commroof_nvtx_pop() < -1;
}
EOF
    for cxx in c++ clang++; do
        command -v $cxx >/dev/null 2>&1 || continue
        $cxx -std=c++11 -Wall -Wextra -Wpedantic -Wold-style-cast -Werror -fsyntax-only $CF \
            -isystem "$CUDA/include" "$T/nvtx.cc" 2>"$T/err" ||
            { cat "$T/err"; fail "commroof_nvtx.h with nvtx3 does not compile as C++ with $cxx -Wold-style-cast"; }
    done
fi

# The link below tries five headers; every installed header carries the
# block (commroof_nvtx.h too, though its functions are static inline).
for h in $(grep -L 'extern "C" {' "$T"/prefix/include/commroof/*.h); do
    fail "$(basename "$h") has no extern \"C\" block for C++ callers"
done

# C++ callers: without the headers' extern "C" blocks the calls name
# C++-mangled symbols (cr_strerror(cr_status)) that the library does not
# have, and the program does not link. Functions of five headers (status,
# topo_xml, topo, route, trace_reader); shared library and static archive.
# The trace is one complete event, so the reader returns 1 event.
cat >"$T/tiny.cc" <<'EOF'
#include <cstdio>
#include <cstring>

#include <route.h>
#include <status.h>
#include <topo.h>
#include <topo_xml.h>
#include <trace_reader.h>

int main()
{
    cr_topo *t = NULL;
    cr_diag d = {};
    if (cr_topo_open("hgx-h200-8", &t, &d) != CR_OK) {
        std::fprintf(stderr, "%s\n", d.msg);
        return 1;
    }
    double bw = cr_route_bw_Bps(t, 0, 1);
    int gpus = t->n_gpus;
    cr_topo_free(t);
    const char *trace = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":\"k\"}]}";
    cr_trace_reader *r = NULL;
    const cr_trace_event *ev = NULL;
    int events = 0;
    if (cr_trace_reader_open_mem(trace, std::strlen(trace), "t.json", &r) != CR_OK)
        return 1;
    while (cr_trace_reader_next(r, &ev, &d) == CR_OK && ev)
        events++;
    cr_trace_reader_free(r);
    std::printf("%d GPUs, 0->1 %.0f GB/s, %d event, %s\n", gpus, bw / 1e9, events,
                cr_strerror(CR_ENOMEM));
    return 0;
}
EOF
want="8 GPUs, 0->1 513 GB/s, 1 event, out of memory"
if c++ -std=c++11 -Wall -Wextra -Werror $SANF $CF "$T/tiny.cc" -o "$T/tiny-cc" \
    $(pkg-config --libs commroof) 2>"$T/err"; then
    got=$(LD_LIBRARY_PATH="$T/prefix/lib" "$T/tiny-cc" 2>&1)
    [ "$got" = "$want" ] || fail "C++, shared: got \"$got\", expected \"$want\""
else
    cat "$T/err"; fail "a C++ program does not build against the shared library"
fi
if c++ -std=c++11 $SANF $CF "$T/tiny.cc" -o "$T/tiny-cc-static" "$T/prefix/lib/libcommroof.a" \
    $STATIC_LIBS 2>"$T/err"; then
    got=$("$T/tiny-cc-static" 2>&1)
    [ "$got" = "$want" ] || fail "C++, static: got \"$got\", expected \"$want\""
else
    cat "$T/err"; fail "a C++ program does not build against the static library"
fi
"$T/prefix/bin/commroof" topo check "$T/prefix/share/commroof/topologies/hgx-h200-8.xml" \
    >/dev/null 2>&1 || fail "the installed commroof rejects the installed hgx-h200-8.xml"

# The library's face (issue 18): only the public API's cr_ names are
# exported, and no private header (*_priv.h) is installed.
other=$(nm -D --defined-only "$T/prefix/lib/libcommroof.so" | awk '{print $3}' | grep -v '^cr_' | head -5)
[ -z "$other" ] || fail "libcommroof.so exports names outside cr_: $other"
for h in "$T"/prefix/include/commroof/*_priv.h; do
    [ -e "$h" ] && fail "a private header was installed: $(basename "$h")"
done

# What is installed is what is exported, both ways. The Makefile names the
# public headers (PUBLIC_HEADERS) and the internal ones that are not
# *_priv.h (INTERNAL_HEADERS); every header of the library is in one.
hdrs=$(make -s --no-print-directory BUILD="$B" print-headers) || fail "make print-headers"
public=$(echo "$hdrs" | sed -n 1p)
internal=$(echo "$hdrs" | sed -n 2p)
[ -n "$public" ] || fail "make print-headers named no public header"
for h in model/*.h traces/reader/*.h validate/*.h plots/*.h; do
    case "$h" in *_priv.h) continue ;; esac
    n=0
    for l in $public $internal; do [ "$l" = "$h" ] && n=$((n + 1)); done
    [ $n -eq 1 ] || fail "$h is in $n of the Makefile's PUBLIC_HEADERS and INTERNAL_HEADERS (it must be in one)"
done
for h in $internal; do
    case "$h" in *_priv.h) fail "$h: a *_priv.h needs no place in INTERNAL_HEADERS" ;; esac
    [ -e "$T/prefix/include/commroof/$(basename "$h")" ] && fail "an internal header was installed: $h"
done
for h in $public; do
    [ -f "$T/prefix/include/commroof/$(basename "$h")" ] || fail "public header $h was not installed"
done
# Every exported symbol is declared in an installed header (comments
# stripped, so a name a comment merely mentions does not count).
for h in "$T"/prefix/include/commroof/*.h; do
    cc -fpreprocessed -dD -E -P "$h" 2>/dev/null
done | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u >"$T/declared"
nm -D --defined-only "$T/prefix/lib/libcommroof.so" | awk '{print $3}' | sort -u >"$T/exported"
[ -s "$T/exported" ] || fail "libcommroof.so exports nothing"
undeclared=$(comm -23 "$T/exported" "$T/declared")
if [ -n "$undeclared" ]; then
    fail "libcommroof.so exports $(echo "$undeclared" | wc -l) name(s) no installed header declares (install the header, or declare them in a *_priv.h or an INTERNAL_HEADERS header, which hide them): $(echo $undeclared | cut -c1-300)"
fi
# The shared library is versioned (tools/commroof.pc.in's Version, the
# Makefile's VERSION): libcommroof.so.X.Y.Z with the SONAME
# libcommroof.so.X, which programs record, and the two links to it. It had
# no SONAME: a program recorded "libcommroof.so", the development link.
ver=$(pkg-config --modversion commroof) || fail "pkg-config --modversion commroof"
major=${ver%%.*}
so="$T/prefix/lib/libcommroof.so.$ver"
[ -f "$so" ] && [ ! -L "$so" ] || fail "lib/libcommroof.so.$ver (the .pc's Version) is not installed as a file"
soname=$(readelf -d "$so" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libcommroof.so.$major" ] ||
    fail "libcommroof.so.$ver has SONAME \"$soname\", expected libcommroof.so.$major"
[ "$(readlink "$T/prefix/lib/libcommroof.so.$major")" = "libcommroof.so.$ver" ] ||
    fail "lib/libcommroof.so.$major is not a link to libcommroof.so.$ver"
[ "$(readlink "$T/prefix/lib/libcommroof.so")" = "libcommroof.so.$major" ] ||
    fail "lib/libcommroof.so is not a link to libcommroof.so.$major"
if [ -f "$T/tiny" ]; then
    needed=$(readelf -d "$T/tiny" | sed -n 's/.*(NEEDED).*\[\(libcommroof[^]]*\)\]/\1/p')
    [ "$needed" = "libcommroof.so.$major" ] ||
        fail "a program linked with -lcommroof needs \"$needed\", expected libcommroof.so.$major"
fi

# README's Python example as a user runs it: imported from the installed
# share/commroof/python by the README's sys.path line (bytecode written, as
# Python does by default: its __pycache__ kept share/commroof after
# uninstall, QA audit), through COMMROOF_NVTX_LIB naming a stand-in NVTX
# library that logs each push and pop, so that what reaches NVTX is read
# without a GPU. The three ranges are the example's, written by hand.
if command -v python3 >/dev/null 2>&1; then
    cat >"$T/fake_nvtx.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>

int nvtxRangePushA(const char *name);
int nvtxRangePop(void);

static int log_line(const char *what, const char *name)
{
    FILE *f = fopen(getenv("FAKE_NVTX_LOG"), "a");
    if (!f)
        return -1;
    fprintf(f, "%s%s\n", what, name);
    fclose(f);
    return 0;
}
int nvtxRangePushA(const char *name) { return log_line("push ", name); }
int nvtxRangePop(void) { return log_line("pop", ""); }
EOF
    awk '/^### Annotating your own code/ {on = 1} on && /^```python/ {p = 1; next}
        p && /^```/ {exit} p' README.md |
        sed "s|/usr/local/share/commroof/python|$T/prefix/share/commroof/python|" >"$T/example.py"
    grep -q "$T/prefix/share/commroof/python" "$T/example.py" ||
        fail "README's Python example has no sys.path line for share/commroof/python"
    cat >"$T/run_example.py" <<'EOF'
import sys

class Stub:  # a, b, stream ... of the example: any call, any operator
    def __getattr__(self, name):
        return lambda *a, **k: None
    def __call__(self, *a, **k):
        return None
    def __matmul__(self, other):
        return self

env = {n: Stub() for n in ("a", "b", "stream", "add_kernel", "x", "y", "out")}
exec(compile(open(sys.argv[1]).read(), "README example", "exec"), env)
EOF
    if cc -shared -fPIC -o "$T/libfake_nvtx.so" "$T/fake_nvtx.c" 2>"$T/err"; then
        got=$(cd "$T" && env -u PYTHONDONTWRITEBYTECODE COMMROOF_NVTX_LIB="$T/libfake_nvtx.so" \
            FAKE_NVTX_LOG="$T/nvtx.log" python3 run_example.py example.py 2>&1)
        [ "$got" = "ctypes:$T/libfake_nvtx.so" ] ||
            fail "README's Python example printed \"$got\", expected \"ctypes:$T/libfake_nvtx.so\""
        want="push cr:gemm m=4096 n=4096 k=4096 dtype=bf16
pop
push cr:elementwise elems=16777216 reads=2 writes=1 flops_per=1 dtype=bf16
pop
push cr:gemm m=4096 n=4096 k=4096 dtype=bf16 iters=10
pop"
        got=$(cat "$T/nvtx.log" 2>&1)
        [ "$got" = "$want" ] || fail "README's Python example pushed \"$got\", expected \"$want\""
        [ -n "$(find "$T/prefix/share/commroof/python" -name '*.pyc')" ] ||
            fail "no bytecode beside the installed module: the uninstall check below tests nothing"
    else
        cat "$T/err"; fail "cannot build the stand-in NVTX library"
    fi
fi

# make uninstall removes what make install wrote, and nothing else: with
# PREFIX, and with DESTDIR (a staged install, the .pc naming PREFIX). There
# was no uninstall target.
echo keep >"$T/prefix/lib/other-package.so"
if make --no-print-directory BUILD="$B" uninstall PREFIX="$T/prefix" >"$T/log" 2>&1; then
    left=$(cd "$T/prefix" && find . \( -type f -o -type l \) ! -path ./lib/other-package.so | sort)
    [ -z "$left" ] || fail "make uninstall left $(echo "$left" | wc -l) file(s): $(echo $left | cut -c1-200)"
    [ -f "$T/prefix/lib/other-package.so" ] || fail "make uninstall removed another package's file"
    for dir in include/commroof share/commroof; do
        [ ! -e "$T/prefix/$dir" ] || fail "make uninstall left the folder $dir"
    done
else
    cat "$T/log"; fail "make uninstall failed"
fi
if make --no-print-directory BUILD="$B" install DESTDIR="$T/stage" PREFIX=/opt/cr >"$T/log" 2>&1; then
    [ -f "$T/stage/opt/cr/include/commroof/topo.h" ] ||
        fail "make install DESTDIR=... wrote no header under DESTDIR"
    grep -qx 'prefix=/opt/cr' "$T/stage/opt/cr/lib/pkgconfig/commroof.pc" ||
        fail "make install DESTDIR=... PREFIX=/opt/cr: commroof.pc does not say prefix=/opt/cr"
    make --no-print-directory BUILD="$B" uninstall DESTDIR="$T/stage" PREFIX=/opt/cr >"$T/log" 2>&1 ||
        { cat "$T/log"; fail "make uninstall DESTDIR=... failed"; }
    left=$(cd "$T/stage" && find . \( -type f -o -type l \) | sort)
    [ -z "$left" ] ||
        fail "make uninstall DESTDIR=... left $(echo "$left" | wc -l) file(s): $(echo $left | cut -c1-200)"
else
    cat "$T/log"; fail "make install DESTDIR=... failed"
fi
if [ $fails -ne 0 ]; then echo "check_install: $fails failure(s)"; exit 1; fi
echo "check_install: OK (make install PREFIX=..., pkg-config, shared and static, headers, SONAME, uninstall)"
