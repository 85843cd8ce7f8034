"""What every measurement shares: PyTorch, the device, the dtype, the timing plan and the date of the run."""

import datetime
import os

from errors import UserError
from timing import TimingPlan

TOOL = "parasight-calibrate"
TORCH_DTYPES = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}


def context_memory(torch, device):
    """What the CUDA runtime holds on the device once PyTorch has made its first tensor there — the context and the
    kernel images loaded into it — as BigScience measured it (torch.ones(1).cuda(), then nvidia-smi): the device's
    memory in use (torch.cuda.mem_get_info) less what PyTorch's allocator has reserved. Taken before anything else
    of the run allocates; None on a CPU."""
    if device.type != "cuda":
        return None
    torch.ones(1, device=device)
    torch.cuda.synchronize(device)
    free, total = torch.cuda.mem_get_info(device)
    return total - free - torch.cuda.memory_reserved(device)


class Context:
    """What every measurement needs: torch, the device, the dtype, the timing plan, the date."""

    def __init__(self, torch, args):
        self.torch = torch
        device_type = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
        if device_type == "cuda" and not torch.cuda.is_available():
            raise UserError("--device cuda: PyTorch sees no CUDA device here (torch.cuda.is_available() is False; "
                            f"PyTorch {torch.__version__}{'' if torch.version.cuda else ', built without CUDA'}); "
                            "use --device cpu")
        local_rank = int(os.environ.get("LOCAL_RANK", "0")) if device_type == "cuda" else 0
        self.device = torch.device("cuda", local_rank) if device_type == "cuda" else torch.device("cpu")
        self.dtype_name = args.dtype or ("bf16" if device_type == "cuda" else "fp32")
        self.dtype = getattr(torch, TORCH_DTYPES[self.dtype_name])
        if device_type == "cuda" and self.dtype_name == "bf16" and not torch.cuda.is_bf16_supported():
            raise UserError(f"--dtype bf16: {torch.cuda.get_device_name(self.device)} has no bfloat16 support; use "
                            "--dtype fp16")
        self.context_bytes = context_memory(torch, self.device)
        self.sizes = args.sizes
        repeats = args.repeats or (5 if args.sizes == "tiny" else 20)
        self.plan = TimingPlan(warmup=1 if args.sizes == "tiny" else 5, repeats=repeats,
                               min_sample_s=0.002 if args.sizes == "tiny" else 0.01)
        self.date = datetime.date.today().isoformat()

    def measured(self, what):
        return f"measured on {self.date} by {TOOL} ({what})"

    def median_of(self):
        return f"median of {self.plan.repeats}"
