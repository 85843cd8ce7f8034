#pragma once
// The Report of one simulated iteration: time, throughput, FLOP rates and utilisation (MFU, HFU), the mean time
// breakdown, memory by category with the out-of-memory verdict, and how the simulation ran.

#include "analysis/breakdown.h"
#include "common/progress.h"
#include "common/warning.h"
#include "compile/execution_graph.h"
#include "engine/engine.h"
#include "engine/steady_period.h"
#include "scenario/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace parasight {

struct DeviceReport {
    std::int64_t npu = 0;
    int stage = 0;
    double weight = 1.0;
    TimeBreakdown breakdown;
    double peak_memory_bytes = 0.0;
    std::array<double, memory_category_count> memory_at_peak_bytes{};  // by category, at the device's peak
};

struct OutOfMemory {
    std::int64_t npu = 0;
    std::string tensor;  // what the allocation that crossed the capacity was for
    double time_s = 0.0;
};

struct Report {
    double iteration_time_s = 0.0;
    double samples_per_s = 0.0;
    double tokens_per_s = 0.0;
    std::int64_t devices = 0;
    double model_flops_per_iteration = 0.0;
    double hardware_flops_per_iteration = 0.0;  // recompute included
    double model_tflops_per_device = 0.0;
    double mfu = 0.0;
    double hfu = 0.0;
    TimeBreakdown breakdown;  // mean over devices
    double peak_memory_bytes = 0.0;
    double memory_capacity_bytes = 0.0;
    std::array<double, memory_category_count> memory_by_category_bytes{};  // on the peak device at its peak
    std::optional<OutOfMemory> out_of_memory;
    std::uint64_t events = 0;
    double wall_s = 0.0;
    std::string mode;  // "representative" or "all-devices"
    SteadyStateUse steady_state;  // whether the engine repeated the schedule's steady period (engine/steady_period.h)
    std::vector<Warning> warnings;  // the compiler's, then out of memory, then an implausible iteration time
    std::vector<OffloadUse> offloads;  // the tiers that keep offloaded model states, and how much of each they take
    std::vector<DeviceReport> per_device;
};

// Past a year per iteration (3.15576e7 s, a Julian year) the result is warned about: no real training run has such
// iterations, and a wrong unit is the likely cause (a link of 1 B/s for 1 GB/s gives a GPT-3 iteration of decades).
inline constexpr double seconds_per_julian_year = 365.25 * 24 * 3600;
inline constexpr double implausible_iteration_time_s = seconds_per_julian_year;

// The out-of-memory warning of simulated device `device`, which passed its capacity (over_capacity_task != -2): its
// NPU, its peak so far, what the allocation that crossed was for and when.
[[nodiscard]] Warning out_of_memory_warning(const ExecutionGraph& graph, const EngineRun& run, std::size_t device,
                                            double capacity_bytes);

// The report, or nothing when `progress` asks to stop (it is polled once per simulated device).
[[nodiscard]] std::optional<Report> analyse(const Scenario& scenario, const ExecutionGraph& graph, const EngineRun& run,
                                            const PhaseProgress& progress);

// The report of the whole schedule from a short run of it whose steady period `period` repeats `repeats` more times
// (engine/steady_period.h), read from the short run alone: times, FLOPs and events of the period's tasks counted
// `repeats` more times, memory as the short run reached it (a peak or a crossing after the period n periods later).
// Equal to analyse() of the whole run: the state at the period's end is the state at its start, shifted
// (find_steady_period()), so each repetition is made of the period's tasks shifted.
[[nodiscard]] std::optional<Report> analyse_repeated(const Scenario& scenario, const ExecutionGraph& short_graph,
                                                     const EngineRun& short_run, const SteadyPeriod& period,
                                                     std::int64_t repeats, const PhaseProgress& progress);

}  // namespace parasight
