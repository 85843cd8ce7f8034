"""How many GPU kernels one call launches, and how long each ran on the device, as torch.profiler records them: what
the host's launch time per kernel is paid on in eager training (the measured-operations table records the count beside
each operation's time), and what the GPU itself spends where the host does not bound it."""


def _device_events(torch, function, device):
    """The profiler's device events (kernels, copies and fills) of one call of `function`, or (None, why)."""
    if device.type != "cuda":
        return None, "GPU kernels are counted on a GPU only"
    try:
        from torch.profiler import ProfilerActivity, profile

        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as profiler:
            function()
            torch.cuda.synchronize()
        return [event for event in profiler.events() if event.device_type == torch.autograd.DeviceType.CUDA], None
    except Exception as error:  # a profiler this PyTorch lacks, or one CUPTI refuses: the times stand without it
        return None, str(error).splitlines()[0][:300]


def count_kernels(torch, function, device):
    """(kernels, None) for one call of `function` on a GPU, or (None, why) where they cannot be counted."""
    events, why = _device_events(torch, function, device)
    return (len(events), None) if events is not None else (None, why)


def kernel_times(torch, function, device):
    """([(kernel name, seconds on the device)], None) in the order they ran for one call of `function` on a GPU, or
    (None, why)."""
    events, why = _device_events(torch, function, device)
    if events is None:
        return None, why
    try:
        ordered = sorted(events, key=lambda event: event.time_range.start)
        return [(event.name[:120], event.time_range.elapsed_us() * 1e-6) for event in ordered], None
    except Exception as error:  # an event without its time range in this PyTorch
        return None, str(error).splitlines()[0][:300]
