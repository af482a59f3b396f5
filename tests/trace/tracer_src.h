/* SPDX-License-Identifier: MIT */
/*
 * For the simulations in this folder (*_sim.c): the tracer's parts compiled
 * into the simulation itself, so that it reaches their state and their
 * static functions, and so that a macro defined before this include (a
 * stand-in for a CUPTI call or for realloc) replaces the call in the
 * tracer's code. The same sources as the library (traces/tracer/tracer.mk).
 */
#ifndef CR_TRACER_SRC_H
#define CR_TRACER_SRC_H
#include "../../traces/tracer/trace_core.c"
#include "../../traces/tracer/trace_device.c"
#include "../../traces/tracer/trace_records.c"
#include "../../traces/tracer/trace_buffers.c"
#include "../../traces/tracer/trace_pending.c"
#include "../../traces/tracer/trace_main.c"
#include "../../traces/tracer/trace_nvtx_own.c"
#include "../../traces/tracer/trace_nvtx.c"
#include "../../traces/tracer/trace_graph.c"
#endif
