// libFuzzer target: the input bytes choose a base scenario and a run of in-memory edits (tests/common/
// scenario_edits.h); every edited scenario must be rejected by validate() with located diagnostics, or simulate to a
// Report that holds together (tests/common/report_invariants.h) — never a crash, undefined behaviour, an exception
// or an internal error. Graphs are capped small so that each input runs in milliseconds.

#include "report_invariants.h"
#include "scenario_edits.h"

#include "presets/preset_library.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

// Every bundled scenario, and every preset model on a small cluster.
const std::vector<parasight::Scenario>& bases() {
    static const std::vector<parasight::Scenario> scenarios = [] {
        std::vector<parasight::Scenario> loaded;
        for (const parasight::Preset& preset : parasight::all_presets()) {
            std::string text;
            if (preset.kind == parasight::PresetKind::scenario) {
                text = std::string(preset.text);
            } else if (preset.kind == parasight::PresetKind::model) {
                text = "schema: 1\nmodel: " + std::string(preset.id) +
                       "\ntraining: {global_batch: 32, dtype: fp16}\ncluster:\n  device: a100-80gb\n  topology:\n"
                       "    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}\n"
                       "    - {kind: ring, size: 2, bandwidth: 25 GB/s, latency: 5 us}\n"
                       "parallelism: {dp: 4, pp: 2}\n";
            } else {
                continue;
            }
            const parasight::LoadResult result = parasight::load_scenario_text(text, std::string(preset.id));
            if (result.ok()) loaded.push_back(result.scenario->value());
        }
        if (loaded.empty()) std::abort();
        return loaded;
    }();
    return scenarios;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::size_t at = 0;
    // Two bytes a choice; 0 once the input runs out.
    auto pick = [&](std::size_t n) -> std::size_t {
        std::size_t value = 0;
        for (int b = 0; b < 2 && at < size; ++b) value = value * 256 + data[at++];
        return value % n;
    };
    parasight::Scenario scenario = bases()[pick(bases().size())];
    const std::size_t edits = 1 + pick(8);
    for (std::size_t e = 0; e < edits; ++e) parasight::testing::apply_random_edit(scenario, pick);
    const parasight::Validation validation = parasight::validate(scenario);
    if (!validation.ok()) {
        if (validation.diagnostics.empty()) std::abort();
        for (const parasight::Diagnostic& diagnostic : validation.diagnostics) {
            if (diagnostic.message.empty() || diagnostic.path.empty()) std::abort();
        }
        return 0;
    }
    parasight::SimulateOptions options;
    options.max_tasks = 20'000;
    const auto simulation = parasight::simulate(*validation.scenario, options);
    if (!simulation) {
        if (simulation.error().kind != parasight::SimulationErrorKind::too_large) std::abort();
        return 0;
    }
    if (!parasight::testing::report_invariant_violation(simulation->report).empty()) std::abort();
    return 0;
}
