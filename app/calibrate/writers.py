"""The files parasight-calibrate writes: a device preset, a cluster preset, the measured-operations table and every
raw measurement as JSON. Each is written to a temporary file in the output folder and renamed over its name, so a
reader never sees half a file and an earlier file survives a failed run."""

import json
import os
import tempfile
import textwrap

from errors import UserError

_YAML_SPECIAL = set(":#{}[],&*!|>'\"%@`")


def yaml_string(text):
    """`text` as a YAML scalar: plain when it can be, else double-quoted (JSON's escapes are YAML's)."""
    if not text or text != text.strip() or any(char in _YAML_SPECIAL for char in text) or text[0] in "-?":
        return json.dumps(text, ensure_ascii=False)
    return text


def comment_lines(paragraphs, indent=0, width=118):
    """Each paragraph as '# ' lines wrapped at `width` characters ('' gives a bare '#')."""
    lines = []
    for paragraph in paragraphs:
        if not paragraph:
            lines.append(f"{' ' * indent}#")
            continue
        lead = len(paragraph) - len(paragraph.lstrip(" "))
        for line in textwrap.wrap(paragraph.strip(), width - indent - 2 - lead, break_on_hyphens=False):
            lines.append(f"{' ' * indent}# {' ' * lead}{line}")
    return lines


def prepare_folder(folder):
    """Create `folder` when missing and check that files can be written there."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UserError(f"--out '{folder}' is not a folder")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise UserError(f"--out '{folder}': cannot create the folder: {error.strerror}") from None
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".parasight-calibrate-", suffix=".tmp"):
            pass
    except OSError as error:
        raise UserError(f"--out '{folder}': cannot write there: {error.strerror}") from None


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _aligned(entries, indent):
    """'key: value  # comment' lines, the comments aligned: entries are (key, value, comment) or a comment line
    ('#', text)."""
    width = max((len(f"{key}: {value}") for key, value, _ in entries if key != "#"), default=0)
    width = min(max(width, 24), 40)
    lines = []
    for key, value, comment in entries:
        if key == "#":
            lines.append(f"{' ' * indent}# {value}")
            continue
        text = f"{key}: {value}"
        lines.append(f"{' ' * indent}{text:<{width}}   # {comment}" if comment else f"{' ' * indent}{text}")
    return lines


def device_lines(device, indent=0):
    """The YAML lines of a device mapping: device = {'name', 'peak': [(dtype, value, source)], then (key, value,
    source) for memory, memory_bandwidth and the efficiencies, in that order}."""
    lines = [f"{' ' * indent}name: {yaml_string(device['name'])}", f"{' ' * indent}peak:"]
    lines += _aligned(device["peak"], indent + 2)
    lines += _aligned(device["fields"], indent)
    return lines


def device_yaml(header, device):
    return "\n".join(comment_lines(header) + device_lines(device)) + "\n"


def cluster_yaml(header, name, device, dimensions):
    """dimensions: [(comment lines, flow mapping text, line comment)]."""
    lines = comment_lines(header)
    lines.append(f"name: {yaml_string(name)}")
    lines.append("device:")
    lines += device_lines(device, indent=2)
    lines.append("topology:")
    for comments, mapping, comment in dimensions:
        lines += comment_lines(comments, indent=2)
        lines.append(f"  - {mapping}   # {comment}")
    return "\n".join(lines) + "\n"


def operations_csv(header, rows, time_text):
    lines = comment_lines(header)
    lines.append("operation,pass,time")
    lines += [f"{row['operation']},{row['pass']},{time_text(row['time_s'])}" for row in rows]
    return "\n".join(lines) + "\n"


def calibration_json(data):
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
