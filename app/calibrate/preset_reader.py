"""Device and model presets: read through `parasight-cli presets show KIND/ID`, or from a YAML file.

Presets are flat YAML — `key: value  # source` lines and one level of nested mapping (a device's `peak`), block or
flow style — so a small reader suffices and keeps each number's source comment, which the written device preset
carries on with the numbers it copies (presets/README.md: every number carries its source).
"""

import os
import shutil
import subprocess

from errors import UserError
from quantities import parse_quantity

DTYPES = ("fp32", "tf32", "fp16", "bf16", "fp8")


def _split_comment(line):
    """(text, comment) of a YAML line: a '#' at the start or after a space, outside quotes, starts a comment."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def _scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _flow_mapping(text, where):
    inner = text.strip()[1:-1]
    result = {}
    for item in filter(None, (part.strip() for part in inner.split(","))):
        key, sep, value = item.partition(":")
        if not sep:
            raise UserError(f"{where}: cannot read '{text.strip()}' (expected {{key: value, ...}})")
        result[key.strip()] = _scalar(value)
    return result


def parse_preset(text, where):
    """(values, sources): values a dict of strings and dicts of strings; sources the comment that names each
    number's source, keyed 'key' or 'key.sub' (the comment on its line, else the comment lines just above it)."""
    values, sources = {}, {}
    parent = None  # (key, indent) of the mapping being filled
    above = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body, comment = _split_comment(raw)
        if not body.strip():
            above = above + [comment] if comment else []
            continue
        indent = len(body) - len(body.lstrip(" "))
        if body.strip().startswith("-") or ":" not in body:
            raise UserError(f"{where}:{number}: cannot read '{body.strip()}' (a device or model preset is a mapping "
                            "of 'key: value' lines)")
        key, _, value = body.strip().partition(":")
        key, value = key.strip(), value.strip()
        source = comment or " ".join(above)
        above = []
        if indent == 0:
            parent = None
            if value == "":
                values[key] = {}
                parent = key
            elif value.startswith("{") and value.endswith("}"):
                values[key] = _flow_mapping(value, f"{where}:{number}")
                for sub in values[key]:
                    sources[f"{key}.{sub}"] = source
            else:
                values[key] = _scalar(value)
                sources[key] = source
        elif parent is not None:
            values[parent][key] = _scalar(value)
            sources[f"{parent}.{key}"] = source
        else:
            raise UserError(f"{where}:{number}: unexpected indentation before '{key}'")
    return values, sources


def find_cli(cli):
    """The path of parasight-cli: `cli` itself when it names a file, else looked up on PATH."""
    if os.sep in cli:
        if not (os.path.isfile(cli) and os.access(cli, os.X_OK)):
            raise UserError(f"--cli: '{cli}' is not an executable file")
        return cli
    found = shutil.which(cli)
    if not found:
        raise UserError(f"'{cli}' is not on PATH: install ParaSight, or give parasight-cli's path with --cli PATH "
                        "(or give the preset as a YAML file instead of an id)")
    return found


def read_preset_text(kind, id_or_file, cli):
    """(text, where, label): a preset's YAML from a file (a path, or anything ending in .yaml/.yml) or else from
    `parasight-cli presets show KIND/ID`."""
    if os.path.exists(id_or_file) or id_or_file.endswith((".yaml", ".yml")) or os.sep in id_or_file:
        try:
            with open(id_or_file, encoding="utf-8") as file:
                return file.read(), id_or_file, f"file {os.path.basename(id_or_file)}"
        except OSError as error:
            raise UserError(f"cannot read {kind} file '{id_or_file}': {error.strerror}") from None
    program = find_cli(cli)
    try:
        shown = subprocess.run([program, "presets", "show", f"{kind}/{id_or_file}"], capture_output=True,
                               text=True, timeout=60, check=False)
    except OSError as error:
        raise UserError(f"cannot run '{program}': {error.strerror}") from None
    if shown.returncode != 0:
        message = shown.stderr.strip().splitlines()[0] if shown.stderr.strip() else f"exit status {shown.returncode}"
        raise UserError(f"{kind} preset '{id_or_file}': {message}")
    return shown.stdout, f"{kind} preset {id_or_file}", f"{kind} preset {id_or_file}"


class BaseDevice:
    """The datasheet numbers the efficiencies are measured against: peak FLOP/s per dtype, memory bandwidth."""

    def __init__(self, label, name, peaks, memory_bandwidth):
        """peaks: {dtype: (FLOP/s, text as written, source)}; memory_bandwidth: (B/s, text, source)."""
        self.label = label
        self.name = name
        self.peaks_flops_per_s = {dtype: value for dtype, (value, _, _) in peaks.items()}
        self.peak_texts = {dtype: text for dtype, (_, text, _) in peaks.items()}
        self.peak_sources = {dtype: source for dtype, (_, _, source) in peaks.items()}
        self.memory_bandwidth_Bps, self.bandwidth_text, self.bandwidth_source = memory_bandwidth


def read_base_device(id_or_file, cli):
    text, where, label = read_preset_text("device", id_or_file, cli)
    values, sources = parse_preset(text, where)
    if "preset" in values:
        raise UserError(f"{where}: a base device must be complete; 'preset:' is not read here (give the preset's id)")
    peak = values.get("peak")
    if not isinstance(peak, dict) or not peak:
        raise UserError(f"{where}: no 'peak' mapping (dtype -> compute rate)")
    peaks = {}
    for dtype, rate in peak.items():
        if dtype not in DTYPES:
            raise UserError(f"{where}: peak.{dtype} is not a dtype ParaSight knows ({', '.join(DTYPES)})")
        peaks[dtype] = (parse_quantity(rate, "compute rate", f"{where}: peak.{dtype}"), rate,
                        sources.get(f"peak.{dtype}", ""))
    if "memory_bandwidth" not in values:
        raise UserError(f"{where}: no memory_bandwidth")
    text = values["memory_bandwidth"]
    bandwidth = (parse_quantity(text, "bandwidth", f"{where}: memory_bandwidth"), text,
                 sources.get("memory_bandwidth", ""))
    return BaseDevice(label, values.get("name", id_or_file), peaks, bandwidth)


class TransformerModel:
    """The fields of a transformer model that set the shapes of its operations (docs/scenario-reference.md)."""

    def __init__(self, label, values, where):
        def whole(key, default=None):
            if key not in values:
                if default is None:
                    raise UserError(f"{where}: no '{key}' (a transformer model needs it)")
                return default
            try:
                number = int(values[key])
            except ValueError:
                raise UserError(f"{where}: {key} must be a whole number, not '{values[key]}'") from None
            if number < 1:
                raise UserError(f"{where}: {key} must be at least 1, not {number}")
            return number

        if "preset" in values:
            raise UserError(f"{where}: give the model whole (the file's 'preset:' is not read here), or the preset id")
        if values.get("kind", "transformer") != "transformer":
            raise UserError(f"{where}: the measured-operations table is for transformer models, not "
                            f"'{values.get('kind')}' (a CNN's operations are timed by the roofline)")
        self.label = label
        self.name = values.get("name", label)
        self.layers = whole("layers")
        self.decoder_layers = int(values.get("decoder_layers", "0"))
        self.hidden = whole("hidden")
        self.heads = whole("heads")
        self.kv_heads = whole("kv_heads", self.heads)
        self.ffn_hidden = whole("ffn_hidden", 4 * self.hidden)
        self.seq_len = whole("seq_len")
        self.vocab = whole("vocab")
        self.mlp = values.get("mlp", "gelu")
        if self.mlp not in ("gelu", "swiglu"):
            raise UserError(f"{where}: mlp must be gelu or swiglu, not '{self.mlp}'")
        self.tie_embeddings = values.get("tie_embeddings", "true") == "true"
        self.experts = whole("experts", 1)
        self.experts_per_token = whole("experts_per_token", 1)
        self.capacity_factor = float(values.get("capacity_factor", "1"))
        if self.hidden % self.heads:
            raise UserError(f"{where}: hidden {self.hidden} is not a multiple of heads {self.heads}")


def read_model(id_or_file, cli):
    text, where, _ = read_preset_text("model", id_or_file, cli)
    values, _ = parse_preset(text, where)
    return TransformerModel(id_or_file if not os.path.exists(id_or_file) else os.path.basename(id_or_file),
                            values, where)
