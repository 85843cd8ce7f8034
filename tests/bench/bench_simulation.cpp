// Benchmarks of the simulation budgets in DESIGN.md. Prints one line per case: wall time (best of N runs), peak
// resident memory of the process so far, events and events per second. Not a test: run it on a quiet machine and
// record the figures in docs/performance.md.
//   bench_simulation [--repeat N] [--skip-all-devices]

#include "scenario/scenario_loader.h"
#include "simulation/simulate.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

double peak_rss_mib() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

int run_case(const char* title, const std::string& file, bool all_devices, int repeat) {
    const auto loaded = parasight::load_scenario_file(file);
    if (!loaded.ok()) {
        for (const auto& diagnostic : loaded.diagnostics) std::fprintf(stderr, "%s\n", diagnostic.to_string().c_str());
        return 2;
    }
    double best_s = 1e300;
    std::uint64_t events = 0;
    double iteration_s = 0.0;
    for (int i = 0; i < repeat; ++i) {
        const auto started = std::chrono::steady_clock::now();
        const auto simulation = parasight::simulate(*loaded.scenario, parasight::SimulateOptions{all_devices, false, nullptr});
        const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (!simulation) {
            std::fprintf(stderr, "%s: %s\n", file.c_str(), simulation.error().c_str());
            return 2;
        }
        best_s = std::min(best_s, wall_s);
        events = simulation->report.events;
        iteration_s = simulation->report.iteration_time_s;
    }
    std::printf("%-44s %9.3f s  %8.1f MiB peak RSS  %10llu events  %7.2f M events/s  (iteration %.3f s)\n", title,
                best_s, peak_rss_mib(), static_cast<unsigned long long>(events), events / best_s / 1e6, iteration_s);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    int repeat = 3;
    bool all_devices = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        if (std::strcmp(argv[i], "--skip-all-devices") == 0) all_devices = false;
    }
    const std::string presets = PARASIGHT_SOURCE_DIR "/presets/scenarios/";
    int status = run_case("GPT-3 175B, 1024 A100, representative", presets + "default.yaml", false, repeat);
    status |= run_case("Llama-3 405B, 16384 H100, representative", presets + "llama3-405b-16k.yaml", false, repeat);
    if (all_devices) status |= run_case("GPT-3 175B, 1024 A100, every device", presets + "default.yaml", true, 1);
    return status;
}
