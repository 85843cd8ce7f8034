"""Timing a kernel: warm-up, then repeated samples and their median (as nccl-tests and torch.utils.benchmark do).

A sample runs the kernel enough times back to back to last at least `min_sample_s`, so that the timer's resolution
and the wait for the device do not count; on a GPU the device is synchronized before and after each sample, so the
time is the kernels' own, launched asynchronously as training launches them.
"""

import statistics
import time


class TimingPlan:
    """How long to measure: warm-up calls, samples (the median is taken), and the shortest sample."""

    def __init__(self, warmup, repeats, min_sample_s, max_calls_per_sample=10000):
        self.warmup = warmup
        self.repeats = repeats
        self.min_sample_s = min_sample_s
        self.max_calls_per_sample = max_calls_per_sample


def synchronizer(device):
    """A function that waits for the device's queued work (a no-op on a CPU)."""
    if device.type == "cuda":
        import torch

        return torch.cuda.synchronize
    return lambda: None


class Measurement:
    """The median time of one call and what it rests on."""

    def __init__(self, median_s, samples_s, calls_per_sample):
        self.median_s = median_s
        self.samples_s = samples_s
        self.calls_per_sample = calls_per_sample

    def as_json(self):
        return {"median_time_s": self.median_s, "samples": len(self.samples_s),
                "calls_per_sample": self.calls_per_sample, "min_time_s": min(self.samples_s),
                "max_time_s": max(self.samples_s)}


def measure(function, plan, device):
    """The median over `plan.repeats` samples of one call of `function`'s time."""
    sync = synchronizer(device)
    for _ in range(max(1, plan.warmup)):
        function()
    sync()
    # How many calls a sample needs: time one more call after the warm-up.
    started = time.perf_counter()
    function()
    sync()
    one_call_s = max(time.perf_counter() - started, 1e-9)
    calls = int(min(plan.max_calls_per_sample, max(1, plan.min_sample_s / one_call_s)))
    samples = []
    for _ in range(plan.repeats):
        sync()
        started = time.perf_counter()
        for _ in range(calls):
            function()
        sync()
        samples.append((time.perf_counter() - started) / calls)
    return Measurement(statistics.median(samples), samples, calls)
