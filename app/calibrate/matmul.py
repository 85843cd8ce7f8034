"""Matmul throughput over shapes, and the fit of ParaSight's matmul model to it.

ParaSight times an m x n output reduced over k at peak · matmul_efficiency · the best GEMM tile's fill · speed ·
(k/s) / (k/s + matmul_half_dim), s its split-K (tile and wave quantisation, docs/model.md §2;
core/device/matmul_tiles.cpp, which shape_factor below follows; k / (k + matmul_half_dim) on a device without SMs). The two parameters are fitted to the measured efficiencies (achieved FLOP/s / peak) by least squares.
"""

import math

from timing import measure


def shapes(sizes):
    """(m, n, k) triples: squares, and shapes with one small dimension, so that the fit sees the knee."""
    if sizes == "tiny":
        squares = [8, 16, 32, 64, 128, 256]
        skinny = [(256, 256, 16), (256, 256, 32), (16, 256, 256), (256, 32, 256)]
    else:
        squares = [128, 256, 512, 1024, 2048, 4096, 8192, 16384]
        large = 8192
        skinny = []
        for small in (64, 128, 256, 512, 1024, 2048):
            skinny += [(large, large, small), (small, large, large), (large, small, large)]
    return [(d, d, d) for d in squares] + skinny


def measure_matmuls(torch, device, dtype, plan, sizes):
    """[{m, n, k, flops, time_s, flops_per_s, ...}] for torch.matmul of [m x k] by [k x n]."""
    results = []
    generator = torch.Generator(device=device).manual_seed(0)
    for m, n, k in shapes(sizes):
        a = torch.randn(m, k, device=device, dtype=dtype, generator=generator)
        b = torch.randn(k, n, device=device, dtype=dtype, generator=generator)
        out = torch.empty(m, n, device=device, dtype=dtype)
        timed = measure(lambda: torch.matmul(a, b, out=out), plan, device)
        flops = 2.0 * m * n * k
        results.append({"m": m, "n": n, "k": k, "min_dim": min(m, n, k), "flops": flops,
                        "time_s": timed.median_s, "flops_per_s": flops / timed.median_s, **timed.as_json()})
        a = b = out = None  # freed before the next shape is allocated
    return results


# The thread-block tiles of NVIDIA's Matrix Multiplication Background guide (§2.3), the most efficient first, and
# the split-K factors ParaSight considers.
TILES = [(256, 128), (128, 256), (128, 128), (256, 64), (64, 256), (128, 64), (64, 128), (64, 64)]
SPLITS = [1, 2, 4, 8, 16, 32, 64]


def tile_speed(tile):
    """Operand reuse m·n/(m + n) relative to 256 x 128's."""
    m, n = tile
    return (m * n / (m + n)) / (256 * 128 / 384)


def tile_fill(batch, m, n, tile, streaming_multiprocessors):
    """batch·m·n / (waves · SMs · tile area), waves = ceil(batch · ceil(m/tm) · ceil(n/tn) / SMs)."""
    tm, tn = tile
    tiles = batch * math.ceil(m / tm) * math.ceil(n / tn)
    waves = math.ceil(tiles / streaming_multiprocessors)
    return batch * m * n / (waves * streaming_multiprocessors * tm * tn)


def shape_factor(m, n, k, streaming_multiprocessors, half_dim):
    """What multiplies matmul_efficiency: the best tile and split-K's fill · speed · (k/s) / (k/s + H); without
    SMs (a CPU), k / (k + H)."""
    if not streaming_multiprocessors:
        return k / (k + half_dim)
    best = 0.0
    for tile in TILES:
        tiles = math.ceil(m / tile[0]) * math.ceil(n / tile[1])
        for split in SPLITS if tiles < streaming_multiprocessors else [1]:
            depth = k / split
            best = max(best, tile_fill(split, m, n, tile, streaming_multiprocessors) * tile_speed(tile) *
                       depth / (depth + half_dim))
    return best


def _best_scale(points, half_dim):
    """The least-squares E of y = E · shape_factor(m, n, k, SMs, half_dim), and the squared error."""
    g = [shape_factor(m, n, k, sms, half_dim) for m, n, k, sms, _ in points]
    ys = [y for *_, y in points]
    scale = sum(gi * y for gi, y in zip(g, ys)) / sum(gi * gi for gi in g)
    error = sum((scale * gi - y) ** 2 for gi, y in zip(g, ys))
    return scale, error


def fit_efficiency(points):
    """(matmul_efficiency, matmul_half_dim, rms_error) minimising the squared error of y = E · shape_factor over
    `points` = [(m, n, k, SMs or None, measured efficiency)]: H searched on a log grid over 0 – 10^6, refined by
    golden section; E is the closed-form least squares for each H."""
    if not points:
        raise ValueError("no matmul measured")
    candidates = [0.0] + [10 ** (i / 20) for i in range(0, 121)]  # 1 .. 10^6
    best_h = min(candidates, key=lambda h: _best_scale(points, h)[1])
    # Golden-section search between the grid neighbours of the best point.
    index = candidates.index(best_h)
    low = candidates[max(0, index - 1)]
    high = candidates[min(len(candidates) - 1, index + 1)]
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if _best_scale(points, a)[1] < _best_scale(points, b)[1]:
            high = b
        else:
            low = a
    half_dim = (low + high) / 2
    if _best_scale(points, best_h)[1] < _best_scale(points, half_dim)[1]:
        half_dim = best_h
    scale, error = _best_scale(points, half_dim)
    return scale, half_dim, math.sqrt(error / len(points))
