/* SPDX-License-Identifier: MIT */
/*
 * The trace files' names, as the tracer writes them and `commroof trace`
 * finds them: DIR/commroof-trace.HOST.PID[.rankR][.N].json, the stem
 * (DIR/commroof-trace.HOST.PID[.rankR]) at most CR_TRACE_STEM_MAX bytes.
 * Shared by the tracer library (trace_main.c) and the CLI (cmd_trace.c),
 * which refuses a folder the tracer could not name its files in.
 */
#ifndef CR_TRACE_NAMES_H
#define CR_TRACE_NAMES_H

#define CR_TRACE_FILE_PREFIX "commroof-trace."
/* the longest stem; the tracer's path buffer holds it and ".999.json" */
#define CR_TRACE_STEM_MAX 4000

#endif
