// libFuzzer target: every scenario the loader accepts must simulate — a Report or a clear error, never a crash, a
// hang, undefined behaviour or a leak — and the Report must hold together: its breakdown sums to the iteration time
// and no part of it is negative or not a number. Graphs are capped small so that each input runs in milliseconds.

#include "report_invariants.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const parasight::LoadResult loaded = parasight::load_scenario_text(text, "fuzz.yaml");
    if (!loaded.ok()) return 0;
    parasight::SimulateOptions options;
    options.max_tasks = 20'000;
    const auto simulation = parasight::simulate(*loaded.scenario, options);
    if (!simulation) {
        // An error must say what is wrong, and a valid scenario may only be refused for its size.
        if (simulation.error().message.empty()) std::abort();
        if (simulation.error().kind != parasight::SimulationErrorKind::too_large) std::abort();
        return 0;
    }
    if (!parasight::testing::report_invariant_violation(simulation->report).empty()) std::abort();
    return 0;
}
