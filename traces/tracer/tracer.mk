# SPDX-License-Identifier: MIT
# The CUPTI tracer, libcommroof_trace.so (traces/README.md). Built with gcc
# against $(CUDA_HOME)'s CUPTI headers and libcupti where they exist; where
# they do not, this fragment adds nothing and `make` stays quiet. It is never
# built with SAN=1's sanitizers: it is injected into other programs, which do
# not carry the sanitizer runtimes.

TRACER_CUPTI_H := $(wildcard $(CUDA_HOME)/include/cupti.h $(CUDA_HOME)/extras/CUPTI/include/cupti.h)
TRACER_CUPTI_SO := $(wildcard $(CUDA_HOME)/lib64/libcupti.so $(CUDA_HOME)/extras/CUPTI/lib64/libcupti.so \
                              $(CUDA_HOME)/lib/libcupti.so)
ifneq ($(and $(TRACER_CUPTI_H),$(TRACER_CUPTI_SO),$(wildcard $(CUDA_HOME)/include/cuda.h)),)
TRACER_INC := $(dir $(firstword $(TRACER_CUPTI_H)))
TRACER_LIBDIR := $(patsubst %/,%,$(dir $(firstword $(TRACER_CUPTI_SO))))
TRACER_SO := $(BUILD)/libcommroof_trace.so
# the library's parts (traces/tracer/tracer.h lists them)
TRACER_SRC := $(sort $(wildcard traces/tracer/trace_*.c))
TRACER_HDR := traces/tracer/tracer.h traces/tracer/sb.h traces/tracer/nvtx_payload.h model/grow.h
TRACER_WARN := $(WARN)

.PHONY: tracer
all: tracer
tracer: $(TRACER_SO)

# -isystem: CUDA's headers are not ours to keep warning-free. The rpath binds
# the library to this libcupti unless the process already loaded one with the
# same soname (PyTorch does), which is what NVTX forwarding needs.
$(TRACER_SO): $(TRACER_SRC) $(TRACER_HDR) traces/tracer/tracer.mk
	@mkdir -p $(dir $@)
	gcc -std=c11 -O2 -g -fPIC -shared -fvisibility=hidden $(TRACER_WARN) \
	  -isystem $(TRACER_INC) -isystem $(CUDA_HOME)/include -o $@ $(TRACER_SRC) \
	  -L$(TRACER_LIBDIR) -Wl,-rpath,$(TRACER_LIBDIR) -Wl,--no-undefined -lcupti -ldl -lpthread
endif

# The tracer's demo and overhead programs (kernels/trace_demo, kernels/overhead):
# `make trace-demos`, also part of `make kernels`. Not in `all` (nvcc is slow on
# a 2-core machine); tests/check_trace.sh compiles them once where nvcc exists.
TRACE_NVCC := $(wildcard $(CUDA_HOME)/bin/nvcc)
TRACE_DEMO_GENCODE ?= -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_80,code=compute_80
TRACE_DEMO_BIN := $(BUILD)/kernels/trace_demo/trace_demo $(BUILD)/kernels/overhead/overhead
.PHONY: trace-demos kernels
ifneq ($(TRACE_NVCC),)
trace-demos: $(TRACE_DEMO_BIN)
kernels: trace-demos
$(BUILD)/kernels/trace_demo/trace_demo: kernels/trace_demo/trace_demo.cu
	@mkdir -p $(dir $@)
	$(TRACE_NVCC) -O2 $(TRACE_DEMO_GENCODE) -Xcompiler -Wall,-Wextra -Werror all-warnings \
	  -I$(CUDA_HOME)/include -o $@ $< -ldl
$(BUILD)/kernels/overhead/overhead: kernels/overhead/overhead.cu
	@mkdir -p $(dir $@)
	$(TRACE_NVCC) -O2 $(TRACE_DEMO_GENCODE) -Xcompiler -Wall,-Wextra -Werror all-warnings \
	  -I$(CUDA_HOME)/include -o $@ $< -ldl
else
trace-demos:
	@echo "trace-demos: $(CUDA_HOME)/bin/nvcc not found; set CUDA_HOME to build them"
endif

# tests/unit/test_tracer.c includes nvtx_payload.h where CUDA's NVTX headers
# are (it checks with __has_include, so a machine without CUDA still builds it).
$(BUILD)/tests/test_tracer: CPPFLAGS += -isystem $(CUDA_HOME)/include
$(BUILD)/tests/test_tracer: traces/tracer/sb.h traces/tracer/nvtx_payload.h tests/fuzz/fuzz_nvtx_payload.c
