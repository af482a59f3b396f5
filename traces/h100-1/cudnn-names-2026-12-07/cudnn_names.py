import torch
from torch.nn.attention import sdpa_kernel, SDPBackend
from torch.profiler import profile, ProfilerActivity
print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version())
for dt in (torch.float16, torch.bfloat16):
    for be in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION):
        q = torch.randn(4, 16, 1024, 64, device='cuda', dtype=dt)
        try:
            with sdpa_kernel(be):
                torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)
                torch.cuda.synchronize()
                with profile(activities=[ProfilerActivity.CUDA]) as p:
                    torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)
                    torch.cuda.synchronize()
            names = sorted({e.name for e in p.events() if e.device_type == torch.autograd.DeviceType.CUDA})
            print(dt, be, names)
        except Exception as ex:
            print(dt, be, 'ERR', ex)
