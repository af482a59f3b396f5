# SPDX-License-Identifier: MIT
# kernels/: the CUDA microbenchmarks (crbench), included by the top Makefile.
#
#   make kernels      builds $(BUILD)/kernels/crbench where nvcc exists
#
# Not part of `all`: nvcc takes about a minute for these files on a 2-core
# machine, and the CLI and library need none of it. `make test` compiles them
# once through tests/check_kernels.sh (skipped without nvcc and in the SAN=1
# pass, where nothing host-side changes), so a change that breaks the CUDA
# build fails CI even though CI has no GPU.
#
# Target: sm_90a (Hopper, H100/H200) as HOPPER.md advises, in the -gencode
# form; cp.async.bulk and mbarrier need sm_90. Override NVCC_GENCODE to build
# for another GPU (the TMA kernels then need sm_90 or newer).

NVCC ?= $(CUDA_HOME)/bin/nvcc
NVCC_GENCODE ?= -gencode=arch=compute_90a,code=sm_90a
NVCC_FLAGS ?= -std=c++17 -O3 -lineinfo $(NVCC_GENCODE) -Xcompiler -Wall,-Wextra \
              -Werror all-warnings
KERNELS_SRC := $(sort $(wildcard kernels/*.cu kernels/fused/*.cu))
KERNELS_OBJ := $(KERNELS_SRC:%.cu=$(BUILD)/%.o)
KERNELS_BIN := $(BUILD)/kernels/crbench

.PHONY: kernels
ifneq ($(wildcard $(NVCC)),)
kernels: $(KERNELS_BIN)

$(BUILD)/kernels/%.o: kernels/%.cu kernels/crbench.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -I$(CUDA_HOME)/include -c -o $@ $<

# cuBLASLt for gemm; NCCL is dlopen()ed at run time (nccl.cu), so none here.
$(KERNELS_BIN): $(KERNELS_OBJ)
	$(NVCC) $(NVCC_GENCODE) -o $@ $^ -L$(CUDA_HOME)/lib64 -lcublasLt -ldl -lpthread
else
kernels:
	@echo "kernels: $(NVCC) not found; set CUDA_HOME or NVCC to build crbench"
endif
