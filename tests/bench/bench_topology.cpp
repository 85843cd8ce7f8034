// How long the Topology tab takes to draw each bundled cluster (docs/performance.md): the scene built from the
// topology as it opens (up to 256 NPUs drawn, outer dimensions folded) and with as many dimensions unfolded as
// 1 024 drawn NPUs allow, the innermost first; each timed from the topology to the first paint (the scene built,
// then the view painted into a pixmap). "Drawing a 16 384-GPU cluster stays instant": the whole rebuild,
// drawing and scene, runs on the GUI thread, so it must stay well inside the 50 ms stall budget. Offscreen,
// release build; each figure the median of 9 runs. One line per cluster and folding.

#include "presets/preset_library.h"
#include "scenario_file/scenario_loader.h"
#include "topology/topology_canvas.h"

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
    // The bundled clusters, and a fully connected mesh of 91 (4 095 lines, the most a drawing may hold).
    const std::string mesh = "{device: a100-80gb, topology: [{kind: fully_connected, size: 91, bandwidth: 100 GB/s, "
                             "latency: 1 us}]}";
    for (const std::string id : {"dgx-a100-1024", "dgx-h100-16384", "tpu-v4-4096", "astra-conv4d", "mesh-91"}) {
        const std::string cluster = id == "mesh-91" ? mesh : "{preset: " + id + "}";
        const std::string text = "schema: 1\nmodel: {preset: gpt2-small}\ncluster: " + cluster + "\n";
        const ReadResult read = read_scenario_text(text, id + ".yaml");
        if (!read.scenario) {
            std::fprintf(stderr, "cannot read cluster %s\n", id.c_str());
            return 1;
        }
        const std::vector<Dimension>& dimensions = read.scenario->cluster.topology;
        for (const bool most : {false, true}) {
            std::vector<double> samples;
            std::size_t drawn = 0;
            std::size_t lines = 0;
            for (int run = 0; run < 9; ++run) {
                TopologyCanvas canvas;
                canvas.resize(1000, 800);
                QElapsedTimer clock;
                clock.start();
                canvas.showTopology(dimensions);
                if (most) {
                    for (std::size_t d = 0; d < dimensions.size(); ++d) canvas.setUnfolded(d, true);
                }
                static_cast<void>(canvas.grab());  // and painted once
                samples.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
                drawn = canvas.drawing().npus.size();
                lines = canvas.drawing().links.size();
            }
            std::printf("cluster=%s npus=%lld folding=%s drawn=%zu lines=%zu draw_ms=%.1f\n", id.c_str(),
                        static_cast<long long>(read.scenario->topology().device_count()), most ? "unfolded" : "opened",
                        drawn, lines, median_ms(samples));
        }
    }
    return 0;
}
