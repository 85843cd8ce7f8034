"""parasight-calibrate's measure of the CUDA context (run_context.context_memory) against a stand-in for torch that
records what the tool asked and in which order: the first tensor is made and the device synchronised before its
memory is read, and what PyTorch's allocator reserved is not counted as the runtime's. No GPU is needed.
Run as: python3 context_memory_test.py APP_CALIBRATE_DIR"""

import sys

sys.path.insert(0, sys.argv[1])
import run_context  # noqa: E402

MiB = 2**20


class Device:
    def __init__(self, kind):
        self.type = kind


class FakeCuda:
    def __init__(self, calls):
        self.calls = calls

    def synchronize(self, device):
        self.calls.append("synchronize")

    def mem_get_info(self, device):
        self.calls.append("mem_get_info")
        # An 80 GiB device with 1575 MiB in use: 2 MiB of it the allocator's block for the one tensor, the rest the
        # context (1573 MiB, the A100 figure BigScience read with nvidia-smi).
        return 80 * 1024 * MiB - 1575 * MiB, 80 * 1024 * MiB

    def memory_reserved(self, device):
        self.calls.append("memory_reserved")
        return 2 * MiB


class FakeTorch:
    def __init__(self):
        self.calls = []
        self.cuda = FakeCuda(self.calls)

    def ones(self, size, device):
        self.calls.append("ones")


torch = FakeTorch()
measured = run_context.context_memory(torch, Device("cuda"))
assert measured == 1573 * MiB, measured
assert torch.calls == ["ones", "synchronize", "mem_get_info", "memory_reserved"], torch.calls

cpu = FakeTorch()
assert run_context.context_memory(cpu, Device("cpu")) is None
assert cpu.calls == [], cpu.calls
print("ok")
