"""Quantities as ParaSight writes them (docs/scenario-reference.md, "Units"): parsing and formatting with units."""

import math
import re

from errors import UserError

_UNITS = {
    "size": {"B": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
             "KiB": 2.0**10, "MiB": 2.0**20, "GiB": 2.0**30, "TiB": 2.0**40},
    "bandwidth": {"B/s": 1.0, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12,
                  "KiB/s": 2.0**10, "MiB/s": 2.0**20, "GiB/s": 2.0**30, "TiB/s": 2.0**40,
                  "Kb/s": 1e3 / 8, "Mb/s": 1e6 / 8, "Gb/s": 1e9 / 8, "Tb/s": 1e12 / 8},
    "time": {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0},
    "compute rate": {"FLOP/s": 1.0, "KFLOP/s": 1e3, "MFLOP/s": 1e6, "GFLOP/s": 1e9, "TFLOP/s": 1e12,
                     "PFLOP/s": 1e15},
}
_QUANTITY = re.compile(r"^\s*\+?((?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(\S+)\s*$")


def parse_quantity(text, kind, where):
    """The value in base units (bytes, bytes/s, seconds, FLOP/s) of a quantity such as '989.4 TFLOP/s'."""
    match = _QUANTITY.match(str(text))
    if not match or match.group(2) not in _UNITS[kind]:
        raise UserError(f"{where}: '{text}' is not a {kind} with a unit (units: {', '.join(_UNITS[kind])})")
    return float(match.group(1)) * _UNITS[kind][match.group(2)]


def significant(value, digits=4):
    """`value` with `digits` significant digits, in plain decimal notation (no exponent): 1234.5 -> '1235'."""
    if value == 0 or not math.isfinite(value):
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(value)))))
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _in_unit(value, units):
    """`value` in the largest of `units` (symbol, scale; ascending) that keeps it at least 1."""
    chosen = units[0]
    for symbol, scale in units:
        if abs(value) >= scale:
            chosen = (symbol, scale)
    return f"{significant(value / chosen[1])} {chosen[0]}"


def format_compute_rate(flops_per_s):
    """In TFLOP/s, as datasheets quote accelerators (1978.9 TFLOP/s), or GFLOP/s and MFLOP/s below 1 TFLOP/s."""
    return _in_unit(flops_per_s, [("MFLOP/s", 1e6), ("GFLOP/s", 1e9), ("TFLOP/s", 1e12)])


def format_bandwidth(bytes_per_s):
    """In GB/s, as datasheets quote memory and links (3350 GB/s), or MB/s and KB/s below 1 GB/s."""
    return _in_unit(bytes_per_s, [("KB/s", 1e3), ("MB/s", 1e6), ("GB/s", 1e9)])


def format_time(seconds):
    return _in_unit(seconds, [("ns", 1e-9), ("us", 1e-6), ("ms", 1e-3), ("s", 1.0)])


def format_size(size_bytes):
    """Binary units, as device memory and buffers are quoted: '79.11 GiB', '4 MiB', '4 B'."""
    return _in_unit(size_bytes, [("B", 1.0), ("KiB", 2.0**10), ("MiB", 2.0**20), ("GiB", 2.0**30),
                                 ("TiB", 2.0**40)])


def format_number(value, digits=4):
    return significant(value, digits)
