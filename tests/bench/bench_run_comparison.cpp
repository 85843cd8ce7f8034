// Two runs compared (docs/performance.md; budget: the GUI thread never stalls over 50 ms, a repaint takes at most
// 16 ms): the default scenario (GPT-3 175B on 1024 A100, pp 16, 320 006 events on its 16 simulated devices) against
// the same with pp 4 and dp 32, both simulated once with their events; then, median of 9 runs, release build,
// offscreen:
//   - on the worker: matching the two iterations device by device and event by event, and the five largest changes;
//   - on the GUI thread: showing the timelines on one axis (the whole iteration, every event), repainting them, a
//     repaint zoomed to a tenth, and the breakdown and memory bars.

#include "analysis/timeline_comparison.h"
#include "history/compared_bars_view.h"
#include "history/compared_runs_job.h"
#include "history/compared_timelines_view.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include "median.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>

#include <cstdio>

using namespace parasight;
using namespace parasight::gui;
using bench::median_ms;

namespace {

constexpr int runs = 9;

template <class Work>
double median_of_runs(Work&& work) {
    std::vector<double> samples;
    for (int run = 0; run < runs; ++run) {
        QElapsedTimer clock;
        clock.start();
        work();
        samples.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    return median_ms(samples);
}

std::optional<Simulation> simulated(Scenario scenario) {
    SimulateOptions options;
    options.timeline = TimelineDetail::events;
    auto simulation = simulate(scenario, options);
    if (!simulation) {
        std::fprintf(stderr, "%s\n", simulation.error().message.c_str());
        return std::nullopt;
    }
    return std::move(simulation).value();
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    const LoadResult loaded = load_scenario_file(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml");
    if (!loaded.ok()) return 1;
    Scenario shorter = loaded.scenario->value();
    shorter.parallelism.pp = 4;
    shorter.parallelism.dp = 32;
    auto a = simulated(loaded.scenario->value());
    auto b = simulated(shorter);
    if (!a || !b) return 1;
    auto compared = std::make_shared<ComparedRuns>();
    compared->a_report = a->report;
    compared->b_report = b->report;
    compared->a = a->timeline;
    compared->b = b->timeline;
    const double match_ms = median_of_runs([&] {
        compared->comparison = compare_timelines(*compared->a, *compared->b);
        compared->largest_changes.clear();
        for (const EventChange& change : largest_changes(compared->comparison, *compared->a, *compared->b, 5)) {
            compared->largest_changes.push_back(event_change_text(*compared->a, *compared->b, change));
        }
    });
    std::printf("comparison=match events_a=%zu events_b=%zu matched=%zu ms=%.1f\n", compared->a->event_count(),
                compared->b->event_count(), compared->comparison.matched, match_ms);

    ComparedTimelinesView timelines;
    timelines.resize(1400, 700);
    static_cast<void>(timelines.grab());
    const double show_ms = median_of_runs([&] {
        timelines.showComparison(compared);
        static_cast<void>(timelines.grab());
    });
    std::printf("comparison=timelines whole_iteration show_and_paint_ms=%.1f\n", show_ms);
    const double repaint_ms = median_of_runs([&] { static_cast<void>(timelines.grab()); });
    std::printf("comparison=timelines whole_iteration repaint_ms=%.1f\n", repaint_ms);
    timelines.zoomAt(600.0, 10.0);
    const double zoomed_ms = median_of_runs([&] { static_cast<void>(timelines.grab()); });
    std::printf("comparison=timelines a_tenth repaint_ms=%.1f\n", zoomed_ms);

    ComparedBarsView bars;
    bars.resize(1000, 300);
    const double bars_ms = median_of_runs([&] {
        bars.showComparison(compared);
        static_cast<void>(bars.grab());
    });
    std::printf("comparison=bars show_and_paint_ms=%.1f\n", bars_ms);
    return 0;
}
