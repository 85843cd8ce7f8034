// libFuzzer target: every scenario the loader accepts must simulate — a Report or a clear error, never a crash, a
// hang, undefined behaviour or a leak — and the Report must hold together: its breakdown sums to the iteration time
// and no part of it is negative or not a number. Graphs are capped small so that each input runs in milliseconds.

#include "scenario/scenario_loader.h"
#include "simulation/simulate.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

bool finite_and_not_negative(double value) { return std::isfinite(value) && value >= 0.0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const parasight::LoadResult loaded = parasight::load_scenario_text(text, "fuzz.yaml");
    if (!loaded.ok()) return 0;
    parasight::SimulateOptions options;
    options.max_tasks = 20'000;
    const auto simulation = parasight::simulate(*loaded.scenario, options);
    if (!simulation) {
        if (simulation.error().empty()) std::abort();  // an error must say what is wrong
        return 0;
    }
    const parasight::Report& report = simulation->report;
    if (!finite_and_not_negative(report.iteration_time_s)) std::abort();
    const parasight::TimeBreakdown& b = report.breakdown;
    double sum = b.compute_s + b.exposed_memory_s + b.bubble_s + b.idle_s;
    for (const double exposed : b.exposed_comm_s) {
        if (!finite_and_not_negative(exposed)) std::abort();
        sum += exposed;
    }
    for (const double part : {b.compute_s, b.exposed_memory_s, b.bubble_s, b.idle_s}) {
        if (!finite_and_not_negative(part)) std::abort();
    }
    if (std::fabs(sum - report.iteration_time_s) > 1e-9 * std::fmax(1.0, report.iteration_time_s)) std::abort();
    if (!finite_and_not_negative(report.peak_memory_bytes)) std::abort();
    return 0;
}
