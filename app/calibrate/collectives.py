"""Collectives: all-reduce bus bandwidth and latency per topology dimension, with torch.distributed.

Processes are either spawned here (`--world-size N` local processes: gloo on CPUs, NCCL on GPUs, one GPU each) or
started by torchrun (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT set), which is how a run spans nodes.
The world is laid out as ParaSight lays out NPU ids (docs/scenario-reference.md, cluster.topology): with dimension
sizes s_0, s_1, … (innermost first), rank = Σ c_i · Π_{j<i} s_j. For each dimension every group of ranks that
differ only in that coordinate runs the all-reduce at the same time, as a parallel group's collectives do in
training.

Each size is timed as nccl-tests times it: warm-up, then samples of back-to-back calls; the time of a size is the
slowest rank's median. algbw = bytes / time and busbw = algbw · 2(n − 1)/n, as nccl-tests defines them; for a ring
all-reduce busbw is what each rank's port moves. The dimension's bandwidth is the best busbw over the sizes;
its per-hop latency is what makes ParaSight's ring all-reduce on a switch (2(n − 1) steps of 2 hops;
docs/collectives.md) take the measured time of the smallest size.
"""

import datetime
import json
import os
import socket
import statistics
import tempfile
import time
import traceback

from errors import MeasurementError, UserError


def parse_dimensions(text, world_size):
    """[s_0, s_1, …] from '8,16'; their product must be the world size."""
    if text is None:
        return [world_size]
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise UserError(f"--dimensions '{text}' must be whole numbers separated by commas, innermost first "
                        "(e.g. 8,16)") from None
    if any(size < 2 for size in sizes):
        raise UserError(f"--dimensions '{text}': every dimension needs at least 2 ranks to measure")
    product = 1
    for size in sizes:
        product *= size
    if product != world_size:
        raise UserError(f"--dimensions '{text}': the product of the sizes is {product}, but the world size is "
                        f"{world_size}; the sizes must multiply to the number of processes")
    return sizes


def dimension_groups(dimensions):
    """Per dimension, the rank lists of its groups (ranks that differ only in that coordinate)."""
    world = 1
    for size in dimensions:
        world *= size
    groups = []
    stride = 1
    for size in dimensions:
        groups.append([[base + c * stride for c in range(size)]
                       for base in range(world) if (base // stride) % size == 0])
        stride *= size
    return groups


def buffer_sizes_bytes(sizes, device_type):
    """All-reduce buffers: 4 B (one float, for the latency), then powers of 4."""
    if sizes == "tiny":
        return [4, 2**10, 2**16, 2**20, 4 * 2**20]
    largest = 2**30 if device_type == "cuda" else 2**28
    result = [4]
    size = 2**10
    while size <= largest:
        result.append(size)
        size *= 4
    return result


def bus_factor(ranks):
    """nccl-tests' all-reduce bus bandwidth factor: busbw = algbw · 2(n − 1)/n."""
    return 2.0 * (ranks - 1) / ranks


def summarize_dimension(points, ranks):
    """The dimension's bandwidth (best busbw) and per-hop latency from its measured points."""
    best = max(points, key=lambda point: point["busbw_Bps"])
    smallest = min(points, key=lambda point: point["size_bytes"])
    bandwidth = best["busbw_Bps"]
    # ParaSight's ring all-reduce on a switch: bytes_sent / B + 2(n − 1) steps · 2 hops · latency.
    serialization_s = bus_factor(ranks) * smallest["size_bytes"] / bandwidth
    hops = 2 * (ranks - 1) * 2
    latency = max(0.0, smallest["time_s"] - serialization_s) / hops
    return {"bus_bandwidth_Bps": bandwidth, "bus_bandwidth_at_bytes": best["size_bytes"],
            "smallest_bytes": smallest["size_bytes"], "smallest_time_s": smallest["time_s"],
            "hops_of_smallest": hops, "latency_s": latency}


class CollectiveSettings:
    def __init__(self, world_size, dimensions, device_type, sizes, plan, timeout_s=600):
        self.world_size = world_size
        self.dimensions = dimensions
        self.device_type = device_type
        self.backend = "nccl" if device_type == "cuda" else "gloo"
        self.sizes = sizes
        self.warmup = plan.warmup
        self.repeats = plan.repeats
        self.min_sample_s = plan.min_sample_s
        self.timeout_s = timeout_s


def _measure(settings, rank, local_rank):
    """Every dimension's points on this rank, reduced to the slowest rank's medians (valid on every rank)."""
    import torch
    import torch.distributed as dist

    device = torch.device("cuda", local_rank) if settings.device_type == "cuda" else torch.device("cpu")

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize(device)

    def world_max(values):
        tensor = torch.tensor(values, dtype=torch.float64 if device.type == "cpu" else torch.float32, device=device)
        dist.all_reduce(tensor, op=dist.ReduceOp.MAX)
        return tensor.tolist()

    dimensions = []
    all_groups = dimension_groups(settings.dimensions)
    for index, groups in enumerate(all_groups):
        mine = None
        for ranks in groups:  # every rank creates every group, in the same order
            group = dist.new_group(ranks)
            if rank in ranks:
                mine = group
        align = torch.zeros(1, device=device)
        points = []
        for size in buffer_sizes_bytes(settings.sizes, settings.device_type):
            buffer = torch.ones(max(1, size // 4), dtype=torch.float32, device=device)
            for _ in range(max(1, settings.warmup)):
                dist.all_reduce(buffer, group=mine)
            sync()
            started = time.perf_counter()
            dist.all_reduce(buffer, group=mine)
            sync()
            one_call_s = world_max([time.perf_counter() - started])[0]
            calls = int(min(1000, max(1, settings.min_sample_s / max(one_call_s, 1e-9))))
            samples = []
            for _ in range(settings.repeats):
                dist.all_reduce(align, group=mine)  # start together
                sync()
                started = time.perf_counter()
                for _ in range(calls):
                    dist.all_reduce(buffer, group=mine)
                sync()
                samples.append((time.perf_counter() - started) / calls)
            slowest_s = world_max([statistics.median(samples)])[0]
            ranks = settings.dimensions[index]
            points.append({"size_bytes": size, "time_s": slowest_s, "calls_per_sample": calls,
                           "samples": settings.repeats, "algbw_Bps": size / slowest_s,
                           "busbw_Bps": size / slowest_s * bus_factor(ranks)})
            del buffer
        dimensions.append({"dimension": index, "size": settings.dimensions[index], "groups": len(groups),
                           "group_of_rank_0": groups[0], "points": points,
                           **summarize_dimension(points, settings.dimensions[index])})
    return dimensions


def _host_description(settings):
    import torch
    return {"backend": settings.backend, "torch": torch.__version__, "world_size": settings.world_size,
            "dimensions": settings.dimensions, "dtype": "fp32", "operation": "all_reduce (sum)",
            "date": datetime.date.today().isoformat()}


def _spawned_worker(local_rank, settings, init_file, result_file):
    import torch
    import torch.distributed as dist

    if settings.device_type == "cuda":
        torch.cuda.set_device(local_rank)
    dist.init_process_group(settings.backend, init_method=f"file://{init_file}", rank=local_rank,
                            world_size=settings.world_size,
                            timeout=datetime.timedelta(seconds=settings.timeout_s))
    try:
        dimensions = _measure(settings, local_rank, local_rank)
    finally:
        dist.destroy_process_group()
    if local_rank == 0:
        with open(result_file, "w", encoding="utf-8") as file:
            json.dump({**_host_description(settings), "launcher": "local processes", "results": dimensions}, file)


def run_local(settings):
    """Spawn settings.world_size processes on this machine; the measured dimensions."""
    import torch
    import torch.multiprocessing as multiprocessing

    if settings.device_type == "cuda" and torch.cuda.device_count() < settings.world_size:
        raise UserError(f"--world-size {settings.world_size} needs one GPU per process, but this machine has "
                        f"{torch.cuda.device_count()}; run on several nodes with torchrun instead")
    if settings.backend == "gloo" and "GLOO_SOCKET_IFNAME" not in os.environ:
        # The processes share this machine: gloo talks over loopback, which needs no resolvable host name.
        loopback = [name for _, name in socket.if_nameindex() if name.startswith("lo")]
        if loopback:
            os.environ["GLOO_SOCKET_IFNAME"] = loopback[0]
    with tempfile.TemporaryDirectory(prefix="parasight-calibrate-") as folder:
        init_file = os.path.join(folder, "rendezvous")
        result_file = os.path.join(folder, "collectives.json")
        try:
            multiprocessing.spawn(_spawned_worker, args=(settings, init_file, result_file),
                                  nprocs=settings.world_size, join=True)
        except Exception as error:  # a worker's failure arrives as its traceback text
            lines = [line for line in str(error).strip().splitlines() if line.strip()]
            raise MeasurementError(f"the {settings.backend} all-reduce between {settings.world_size} local "
                                   f"processes failed: {lines[-1] if lines else type(error).__name__}") from None
        with open(result_file, encoding="utf-8") as file:
            return json.load(file)


def torchrun_environment():
    """(rank, world_size, local_rank) when started by torchrun (or another launcher setting its variables)."""
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        try:
            return (int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]),
                    int(os.environ.get("LOCAL_RANK", os.environ["RANK"])))
        except ValueError:
            raise UserError("RANK, WORLD_SIZE and LOCAL_RANK must be whole numbers") from None
    return None


def run_under_torchrun(settings, rank, local_rank):
    """Measure as one rank of a torchrun world; the measured dimensions on every rank."""
    import torch
    import torch.distributed as dist

    if settings.device_type == "cuda":
        torch.cuda.set_device(local_rank)
    try:
        dist.init_process_group(settings.backend, init_method="env://",
                                timeout=datetime.timedelta(seconds=settings.timeout_s))
        try:
            dimensions = _measure(settings, rank, local_rank)
        finally:
            dist.destroy_process_group()
    except (RuntimeError, ValueError) as error:
        detail = traceback.format_exception_only(type(error), error)[-1].strip()
        raise MeasurementError(f"rank {rank}: the {settings.backend} all-reduce failed: {detail}") from None
    return {**_host_description(settings), "launcher": "torchrun", "results": dimensions}
