// The timeline's repaint budget: at most 16 ms for any visible range at a million events (docs/contracts.md,
// "Budgets"). tests/data/bench/timeline_million.yaml simulated on every device gives 1 024 rows holding about a
// million events; the view (1600x1000, offscreen) is repainted at five zoom levels, each at 24 places spread over the
// iteration and the rows. One line per zoom: `zoom=… median_ms=… worst_ms=…`. Release build: `make bench`.

#include "timeline/timeline_view.h"

#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QScrollBar>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace parasight;
using parasight::gui::TimelineView;

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    const LoadResult loaded = load_scenario_file(PARASIGHT_SOURCE_DIR "/tests/data/bench/timeline_million.yaml");
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.diagnostics.front().to_string().c_str());
        return 1;
    }
    SimulateOptions options;
    options.all_devices = true;
    options.timeline = TimelineDetail::events;
    const auto simulation = simulate(*loaded.scenario, options);
    if (!simulation) return 1;
    QElapsedTimer clock;
    clock.start();
    const auto levels = TimelineLevels::build(simulation->timeline, PhaseProgress(nullptr, SimulationPhase::analysis));
    const double build_ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    clock.restart();
    const auto classes = std::make_shared<const IdenticalDevices>(IdenticalDevices::of(levels->timeline()));
    const double classes_ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    std::printf("events=%zu rows=%zu levels_build_ms=%.0f levels_MiB=%.1f identical_devices_ms=%.0f classes=%zu\n",
                levels->timeline().event_count(), levels->timeline().devices().size(), build_ms,
                static_cast<double>(levels->memory_bytes()) / (1024.0 * 1024.0), classes_ms, classes->class_count());

    // Every device listed, identical ones too: the rows a repaint walks are all 1 024 devices'.
    TimelineView view;
    view.resize(1600, 1000);
    view.showTimeline(levels, classes);
    view.setEveryClassUnfolded(true);
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    for (const double zoom : {1.0, 10.0, 100.0, 1000.0, 10000.0}) {
        std::vector<double> repaint_ms;
        for (int place = 0; place < 24; ++place) {
            // 1/zoom of the iteration, from the left edge to the right edge as `place` goes, and down the rows.
            const double fraction = place / 23.0;
            const double total_s = levels->timeline().iteration_time_s();
            const double shown_s = total_s / zoom;
            view.showRange(fraction * (total_s - shown_s), fraction * (total_s - shown_s) + shown_s);
            view.verticalScrollBar()->setValue(static_cast<int>(fraction * view.verticalScrollBar()->maximum()));
            clock.restart();
            view.viewport()->render(&image);
            repaint_ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        }
        std::sort(repaint_ms.begin(), repaint_ms.end());
        std::printf("zoom=%g median_ms=%.2f worst_ms=%.2f\n", zoom, repaint_ms[repaint_ms.size() / 2],
                    repaint_ms.back());
    }
    return 0;
}
