// How long the oracle takes (docs/performance.md): the closed forms for ResNet-50 (presets/scenarios/
// resnet50-abci.yaml) at every default PE count, 1 to 1024, and every strategy — every arrangement of each p tried —
// in the core alone; and in the Oracle tab, from an edit of the scenario to the tab repainted (the problem read, the
// strategies chosen, three charts and the table rebuilt, then painted once), all on the GUI thread, so it must stay
// well inside the 50 ms stall budget. Offscreen, release build; each figure the median of 15 runs.

#include "document/scenario_document.h"
#include "oracle/oracle_view.h"
#include "oracle/strong_scaling.h"

#include "median.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>

#include <cstdio>
#include <vector>

using namespace parasight;
using namespace parasight::gui;

using bench::median_ms;

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    ScenarioDocument document;
    Diagnostics problems;
    if (!document.openFile(QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/scenarios/resnet50-abci.yaml"), problems)) {
        std::fprintf(stderr, "cannot open resnet50-abci.yaml\n");
        return 1;
    }
    std::vector<OracleStrategy> strategies;
    for (const auto& entry : oracle_strategy_names) strategies.push_back(entry.value);
    const Scenario& scenario = document.validated()->value();
    const std::vector<std::int64_t> pes = oracle_default_pes(scenario.device_count());

    std::vector<double> core;
    std::size_t estimates = 0;
    for (int run = 0; run < 15; ++run) {
        QElapsedTimer clock;
        clock.start();
        const auto problem = oracle_problem(*document.validated());
        const auto points = oracle_strong_scaling(*problem, scenario.cluster.topology, pes, strategies);
        core.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        estimates = points.size() * points.front().choices.size();
    }
    std::printf("oracle=core model=resnet50 layers=56 pes=%zu strategies=%zu choices=%zu ms=%.3f\n", pes.size(),
                strategies.size(), estimates, median_ms(core));

    OracleView view(document);
    view.resize(1100, 800);
    static_cast<void>(view.grab());
    std::vector<double> tab;
    for (int run = 0; run < 15; ++run) {
        QElapsedTimer clock;
        clock.start();
        document.edit(QStringLiteral("batch"), QString(),
                      [run](Scenario& s) { s.training.global_batch = run % 2 == 0 ? 512 : 256; });
        static_cast<void>(view.grab());
        tab.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    std::printf("oracle=tab model=resnet50 edit_to_paint_ms=%.1f\n", median_ms(tab));
    return 0;
}
