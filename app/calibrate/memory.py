"""Memory bandwidth (large copies) and the streaming kernels of a transformer layer at generic sizes.

Bytes are counted as ParaSight counts them (core/model/layer_operations.cpp): a copy reads and writes its buffer;
LayerNorm, GeLU and softmax read and write the activation; dropout + residual add reads two activations and writes
one and a 1-byte mask.
"""

from timing import measure


def copy_sizes_bytes(sizes):
    if sizes == "tiny":
        return [2**20, 4 * 2**20, 16 * 2**20]
    return [256 * 2**20, 2**30, 2 * 2**30]


def measure_copies(torch, device, plan, sizes):
    """[{size_bytes, moved_bytes, time_s, bandwidth_Bps}] for dst.copy_(src) of byte buffers."""
    results = []
    for size in copy_sizes_bytes(sizes):
        source = torch.ones(size, dtype=torch.uint8, device=device)
        target = torch.empty_like(source)
        timed = measure(lambda: target.copy_(source), plan, device)
        moved = 2.0 * size  # read once, written once
        results.append({"size_bytes": size, "moved_bytes": moved, "time_s": timed.median_s,
                        "bandwidth_Bps": moved / timed.median_s, **timed.as_json()})
        source = target = None  # freed before the next size is allocated
    return results


def elementwise_shape(sizes):
    """(rows, width): tokens x hidden of a large layer, or a small one."""
    return (256, 256) if sizes == "tiny" else (8192, 8192)


def measure_elementwise(torch, device, dtype, plan, sizes, dropout):
    """[{kernel, elements, bytes, time_s, bandwidth_Bps}] for LayerNorm, GeLU, dropout + residual add, softmax."""
    functional = torch.nn.functional
    rows, width = elementwise_shape(sizes)
    elements = rows * width
    element_bytes = torch.tensor([], dtype=dtype).element_size()
    x = torch.randn(rows, width, device=device, dtype=dtype)
    residual = torch.randn(rows, width, device=device, dtype=dtype)
    weight = torch.ones(width, device=device, dtype=dtype)
    bias = torch.zeros(width, device=device, dtype=dtype)
    kernels = [
        ("layernorm", lambda: functional.layer_norm(x, (width,), weight, bias), 2.0 * elements * element_bytes),
        ("gelu", lambda: functional.gelu(x), 2.0 * elements * element_bytes),
        ("dropout_residual", lambda: residual + functional.dropout(x, p=dropout, training=True),
         elements * (3.0 * element_bytes + 1.0)),
        ("softmax", lambda: torch.softmax(x, dim=-1), 2.0 * elements * element_bytes),
    ]
    results = []
    for name, function, moved in kernels:
        with torch.no_grad():
            timed = measure(function, plan, device)
        results.append({"kernel": name, "shape": [rows, width], "elements": elements, "bytes": moved,
                        "time_s": timed.median_s, "bandwidth_Bps": moved / timed.median_s, **timed.as_json()})
    return results
