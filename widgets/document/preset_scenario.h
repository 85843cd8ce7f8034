#pragma once
// A new scenario from any bundled preset (File → Open Preset): a scenario preset as it is; a model, cluster or
// device preset put into the bundled default scenario in place of its own. So that the newcomer's first run is a
// simulation rather than a list of problems, the default's choices (dtype, tp 8 · pp 16, recompute) are kept where
// the new part allows them and otherwise the nearest ones that it does are taken, dp filling the devices
// (`dp: auto`).

#include "diagnostics/diagnostic.h"
#include "presets/preset_library.h"
#include "scenario/scenario.h"

#include <optional>

namespace parasight::gui {

// Nothing, with the loader's diagnostics in `problems`, when the preset does not load (a bundled file is broken).
[[nodiscard]] std::optional<Scenario> scenario_from_preset(const Preset& preset, Diagnostics& problems);

}  // namespace parasight::gui
