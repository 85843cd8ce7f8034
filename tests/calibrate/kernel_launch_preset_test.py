"""presets/devices/h200-measured.yaml's kernel launch figures against the raw measurements they were written from
(tests/data/calibration/h200-2026-11-28/training-step-1.json), recomputed with parasight-calibrate's own code
(device_preset.kernel_launch_fields), and the three runs' figures its comments quote (training-step-1/2/3.json).
Run as: python3 kernel_launch_preset_test.py APP_CALIBRATE_DIR PRESET.yaml DATA_DIR"""

import json
import os
import sys

sys.path.insert(0, sys.argv[1])
import device_preset  # noqa: E402
import preset_reader  # noqa: E402
from quantities import parse_quantity  # noqa: E402

with open(sys.argv[2], encoding="utf-8") as file:
    preset_text = file.read()
preset, _ = preset_reader.parse_preset(preset_text, sys.argv[2])
# The comments as one line of words, however the preset wraps them.
comment_words = " ".join(preset_text.replace("#", " ").split())


class Run:
    """What kernel_launch_fields needs of the tool's run context: the source comment of a measured number."""

    def __init__(self, date):
        self.date = date

    def measured(self, what):
        return f"measured on {self.date} by parasight-calibrate ({what})"


def fields_of(run):
    with open(os.path.join(sys.argv[3], f"training-step-{run}.json"), encoding="utf-8") as file:
        raw = json.load(file)
    survey = raw["survey"]
    return dict((key, (value, source)) for key, value, source in
                device_preset.kernel_launch_fields(survey["launch"], survey["training_step"], Run(raw["date"])))


first = fields_of(1)
for key in ("kernel_launch", "graph_kernel_launch"):
    value, source = first[key]
    if parse_quantity(value, "time", key) != parse_quantity(preset[key], "time", key):
        raise SystemExit(f"FAIL {key}: the raw data give {value}, the preset says {preset[key]}")
    if " ".join(source.split()) not in comment_words:
        raise SystemExit(f"FAIL {key}'s source: the preset's comments do not say what the tool writes, '{source}'")
runs = [parse_quantity(fields_of(run)["kernel_launch"][0], "time", "kernel_launch") for run in (1, 2, 3)]
quoted = ", ".join(f"{seconds * 1e6:.1f}" for seconds in runs)
if f"kernel_launch (three runs with the survey) {quoted} us" not in comment_words:
    raise SystemExit(f"FAIL the preset's comments do not quote the three runs' kernel_launch as {quoted} us")
print("ok")
