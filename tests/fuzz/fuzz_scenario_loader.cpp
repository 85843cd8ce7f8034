// libFuzzer target: any bytes through the scenario loader must give a Scenario or diagnostics — never a crash, hang
// or leak — and every Scenario it accepts must survive a write and a reload unchanged.

#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const parasight::LoadResult first = parasight::load_scenario_text(text, "fuzz.yaml");
    if (first.ok() == first.diagnostics.empty()) {
        // ok() and "no diagnostics" must agree.
    } else {
        std::abort();
    }
    if (!first.ok()) return 0;
    const std::string written = parasight::write_scenario_yaml(first.scenario->value());
    const parasight::LoadResult second = parasight::load_scenario_text(written, "written.yaml");
    if (!second.ok() || !(*second.scenario == *first.scenario)) std::abort();
    return 0;
}
