"""The optimizer step: torch.optim.AdamW over fp32 parameters (the master weights of mixed-precision training) with
their gradients. ParaSight charges Adam 28 bytes of memory traffic per parameter (core/model/model_states.cpp);
the achieved bandwidth is reported on that count.
"""

from timing import measure

ADAM_BYTES_PER_PARAMETER = 28.0


def generic_shapes(sizes):
    """Parameter tensors for the generic measurement: 1 M parameters in 8 tensors, or 256 M in 64."""
    if sizes == "tiny":
        return [(128, 1024)] * 8
    return [(4096, 1024)] * 64


def measure_adamw(torch, device, plan, parameter_shapes):
    """{parameters, tensors, time_s, bandwidth_Bps} of one AdamW step over tensors of `parameter_shapes`."""
    parameters = []
    for shape in parameter_shapes:
        parameter = torch.nn.Parameter(torch.randn(*shape, device=device, dtype=torch.float32) * 0.02)
        parameter.grad = torch.randn_like(parameter) * 1e-3
        parameters.append(parameter)
    # The multi-tensor (foreach) implementation on a GPU, as training runs it; one tensor at a time on a CPU.
    foreach = device.type == "cuda"
    optimizer = torch.optim.AdamW(parameters, lr=1e-4, weight_decay=0.1, foreach=foreach)
    # The first step allocates the moment buffers; the warm-up absorbs it.
    timed = measure(optimizer.step, plan, device)
    count = sum(p.numel() for p in parameters)
    result = {"parameters": count, "tensors": len(parameters), "time_s": timed.median_s,
              "bytes": ADAM_BYTES_PER_PARAMETER * count,
              "bandwidth_Bps": ADAM_BYTES_PER_PARAMETER * count / timed.median_s,
              "foreach": foreach, **timed.as_json()}
    del optimizer, parameters
    return result
