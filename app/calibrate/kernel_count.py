"""How many GPU kernels one call launches, as torch.profiler records them: what the host's launch time per kernel is
paid on in eager training (the measured-operations table records it beside each operation's time)."""


def count_kernels(torch, function, device):
    """(kernels, None) for one call of `function` on a GPU — kernels, copies and fills the profiler records on the
    device — or (None, why) where they cannot be counted."""
    if device.type != "cuda":
        return None, "GPU kernels are counted on a GPU only"
    try:
        from torch.profiler import ProfilerActivity, profile

        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as profiler:
            function()
            torch.cuda.synchronize()
        on_device = [event for event in profiler.events() if event.device_type == torch.autograd.DeviceType.CUDA]
        return len(on_device), None
    except Exception as error:  # a profiler this PyTorch lacks, or one CUPTI refuses: the times stand without it
        return None, str(error).splitlines()[0][:300]
