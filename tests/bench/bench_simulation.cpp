// Benchmarks of the simulation budgets in docs/contracts.md ("Budgets"). Prints one line per case: wall time (best of N runs),
// peak resident memory of the process so far, events and events per second; then how soon the first progress report
// comes and how long a cancel takes to stop the every-device GPT-3 run at random moments. Not a test: run it on a
// quiet machine and record the figures in docs/performance.md.
//   bench_simulation [--repeat N] [--skip-all-devices] [--cancels N]

#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "validation/validate.h"

#include "largest_strategy_tree.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

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
            std::fprintf(stderr, "%s: %s\n", file.c_str(), simulation.error().message.c_str());
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

// Asks to stop at a set moment; remembers when the first report came and in which phase the stop was seen.
class CancelAt : public parasight::ProgressSink {
public:
    CancelAt(Clock::time_point started, Clock::time_point cancel_at) : started_(started), cancel_at_(cancel_at) {}
    void progress(parasight::SimulationPhase phase, double) override {
        if (!first_report_) first_report_ = Clock::now();
        phase_ = phase;
    }
    [[nodiscard]] bool cancelled() const override {
        const auto now = Clock::now();
        if (now < cancel_at_) return false;
        if (!noticed_) noticed_ = now;
        return true;
    }
    [[nodiscard]] double noticed_after_s() const { return noticed_ ? seconds_between(cancel_at_, *noticed_) : -1; }
    [[nodiscard]] double first_report_s() const { return first_report_ ? seconds_between(started_, *first_report_) : -1; }
    [[nodiscard]] parasight::SimulationPhase phase() const { return phase_; }

private:
    Clock::time_point started_;
    Clock::time_point cancel_at_;
    std::optional<Clock::time_point> first_report_;
    mutable std::optional<Clock::time_point> noticed_;
    parasight::SimulationPhase phase_ = parasight::SimulationPhase::compile;
};

// Cancels the every-device run at `count` moments drawn uniformly over `run_s` (a fixed seed); prints the latency from
// the request to simulate()'s return — graph and engine state freed — per phase, and the first report's delay.
int run_cancels(const std::string& file, int count, double run_s) {
    const auto loaded = parasight::load_scenario_file(file);
    if (!loaded.ok()) return 2;
    std::mt19937_64 generator(1);
    std::uniform_real_distribution<double> moment(0.0, run_s);
    std::array<std::vector<double>, 3> latency_ms;
    std::array<std::vector<double>, 3> noticed_ms;
    double worst_first_ms = 0.0;
    for (int i = 0; i < count; ++i) {
        const double at_s = moment(generator);
        const auto started = Clock::now();
        const auto cancel_at = started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(at_s));
        CancelAt sink(started, cancel_at);
        parasight::SimulateOptions options;
        options.all_devices = true;
        options.progress = &sink;
        const auto simulation = parasight::simulate(*loaded.scenario, options);
        const auto returned = Clock::now();
        worst_first_ms = std::max(worst_first_ms, sink.first_report_s() * 1e3);
        if (simulation) continue;  // finished before the moment came
        latency_ms[static_cast<std::size_t>(sink.phase())].push_back(seconds_between(cancel_at, returned) * 1e3);
        noticed_ms[static_cast<std::size_t>(sink.phase())].push_back(sink.noticed_after_s() * 1e3);
    }
    for (std::size_t phase = 0; phase < latency_ms.size(); ++phase) {
        auto& values = latency_ms[phase];
        auto& noticed = noticed_ms[phase];
        if (values.empty()) continue;
        std::sort(values.begin(), values.end());
        std::sort(noticed.begin(), noticed.end());
        std::printf("cancel while %-10s %3zu runs   noticed after median %6.2f ms, max %6.2f ms   returned after "
                    "median %6.2f ms, max %6.2f ms\n",
                    std::string(name_of(static_cast<parasight::SimulationPhase>(phase),
                                        parasight::simulation_phase_names)).c_str(),
                    values.size(), noticed[noticed.size() / 2], noticed.back(), values[values.size() / 2],
                    values.back());
    }
    std::printf("first progress report after at most %.2f ms\n", worst_first_ms);
    return 0;
}

}  // namespace

// Loading (reading, then validating) the largest strategy tree a scenario may hold: 100 000 entries.
int run_largest_tree_load(int repeat) {
    const std::string text = parasight::testing::scenario_with_largest_strategy_tree();
    double best_load_s = 1e300;
    double best_validate_s = 1e300;
    for (int i = 0; i < repeat; ++i) {
        const auto started = Clock::now();
        const auto loaded = parasight::load_scenario_text(text, "largest.yaml");
        best_load_s = std::min(best_load_s, seconds_between(started, Clock::now()));
        if (!loaded.ok()) {
            std::fprintf(stderr, "%s\n", loaded.diagnostics.front().to_string().c_str());
            return 2;
        }
        // validate() alone, as the GUI runs it on every edit.
        const auto validating = Clock::now();
        const auto validation = parasight::validate(loaded.scenario->value());
        best_validate_s = std::min(best_validate_s, seconds_between(validating, Clock::now()));
        if (!validation.scenario) return 2;
    }
    std::printf("%-44s %9.3f s  %8.1f MiB peak RSS  (%zu bytes of YAML; validate() alone %.3f s)\n",
                "load a 100 000-entry strategy tree", best_load_s, peak_rss_mib(), text.size(), best_validate_s);
    return 0;
}

int main(int argc, char** argv) {
    int repeat = 3;
    bool all_devices = true;
    int cancels = 40;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--cancels") == 0 && i + 1 < argc) cancels = std::max(0, std::atoi(argv[++i]));
        if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        if (std::strcmp(argv[i], "--skip-all-devices") == 0) all_devices = false;
    }
    const std::string presets = PARASIGHT_SOURCE_DIR "/presets/scenarios/";
    int status = run_largest_tree_load(repeat);
    status |= run_case("GPT-3 175B, 1024 A100, representative", presets + "default.yaml", false, repeat);
    status |= run_case("Llama-3 405B, 16384 H100, representative", presets + "llama3-405b-16k.yaml", false, repeat);
    if (all_devices) status |= run_case("GPT-3 175B, 1024 A100, every device", presets + "default.yaml", true, 1);
    // The every-device run takes about 7 s here; moments past its end finish instead of cancelling.
    if (all_devices && cancels > 0) status |= run_cancels(presets + "default.yaml", cancels, 7.0);
    return status;
}
