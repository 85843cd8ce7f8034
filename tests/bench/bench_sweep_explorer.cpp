// The sweep explorer at 10^5 stored points (docs/performance.md; budget: the GUI thread never stalls over 50 ms, a
// repaint takes at most 16 ms). A sweep of 10 × 10 × 10 × 10 × 10 = 100 000 points is stored once in a temporary
// results database (a tenth of them estimated not to fit), then, median of 9 runs, release build, offscreen:
//   - on the worker: the heatmap's grid (two axes across and down, three aggregated by the best point), the same
//     with two axes held, and the table's first page (count and the best 100 by iteration time) with and without a
//     filter, and the Pareto front of time against peak memory over the 90 000 points that fit — what the window
//     waits for, never on its GUI thread;
//   - on the GUI thread: showing the grid and repainting the heatmap with its breakdown bars, a page of 100 points
//     in the table, the History tab's list, and the Pareto view (its cloud drawn once, then repainted; the point
//     under a click found) — what the window does with the answer.

#include "history/history_model.h"
#include "store/point_filter.h"
#include "store/sweep_grid.h"
#include "store/sweep_pareto.h"
#include "sweeps/heatmap_view.h"
#include "sweeps/pareto_view.h"
#include "sweeps/sweep_points_model.h"

#include "median.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QPixmap>
#include <QTableView>

#include <cstdio>
#include <filesystem>
#include <unistd.h>

using namespace parasight;
using namespace parasight::gui;
using bench::median_ms;

namespace {

constexpr int values_per_axis = 10;
constexpr int axes = 5;
constexpr int runs = 9;
const std::vector<std::string> paths{"parallelism.tp", "parallelism.pp", "training.micro_batch",
                                     "parallelism.virtual_stages", "training.global_batch"};

// Point k's value on axis a (the last axis fastest), as the sweep runner writes it.
std::string value_of(std::uint64_t k, int a) {
    std::uint64_t stride = 1;
    for (int later = a + 1; later < axes; ++later) stride *= values_per_axis;
    return std::to_string(1 + (k / stride) % values_per_axis);
}

PointResult point(std::uint64_t k) {
    PointResult result;
    result.point = k;
    for (int a = 0; a < axes; ++a) result.values.push_back({paths[static_cast<std::size_t>(a)], value_of(k, a)});
    result.scenario_name = "explorer";
    result.scenario_yaml = "schema: 1\nname: explorer\n# point " + std::to_string(k) + "\n";
    if (k % 10 == 3) {
        result.status = PointStatus::oom_estimated;
        result.memory_estimate = MemoryEstimate{9e10, 8e10};
        return result;
    }
    Report report;
    report.iteration_time_s = 1.0 + static_cast<double>((k * 7919) % 1000) / 100.0;
    report.samples_per_s = 1536.0 / report.iteration_time_s;
    report.mfu = 0.6 / report.iteration_time_s;
    report.peak_memory_bytes = 1e10 + static_cast<double>(k % 97) * 1e9;
    report.breakdown.compute_s = 0.7 * report.iteration_time_s;
    report.breakdown.exposed_comm_s[static_cast<std::size_t>(CommGroup::dp)] = 0.1 * report.iteration_time_s;
    report.breakdown.bubble_s = 0.2 * report.iteration_time_s;
    report.mode = "representative";
    result.report = report;
    return result;
}

template <class Work>
double timed_ms(Work&& work) {
    QElapsedTimer clock;
    clock.start();
    work();
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

template <class Work>
double median_of_runs(Work&& work) {
    std::vector<double> samples;
    for (int run = 0; run < runs; ++run) samples.push_back(timed_ms(work));
    return median_ms(samples);
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("parasight-bench-explorer-" + std::to_string(getpid()));
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    const std::string database = (folder / "results.db").string();

    std::uint64_t point_count = 1;
    for (int a = 0; a < axes; ++a) point_count *= values_per_axis;
    std::int64_t sweep = 0;
    {
        Expected<ResultStore> store = ResultStore::open(database, ResultStore::Access::read_write);
        if (!store) return std::fprintf(stderr, "%s\n", store.error().c_str()), 1;
        SweepRecord record{"explorer", "schema: 1\nname: explorer\n", {}, point_count};
        for (const std::string& path : paths) {
            std::vector<std::string> values;
            for (int v = 1; v <= values_per_axis; ++v) values.push_back(std::to_string(v));
            record.axes.push_back({path, values});
        }
        sweep = store.value().open_sweep(record).value();
        const double store_ms = timed_ms([&] {
            std::vector<PointResult> batch;
            for (std::uint64_t k = 0; k < point_count; ++k) {
                batch.push_back(point(k));
                if (batch.size() == 5000) {
                    if (auto problem = store.value().add_points(sweep, batch)) std::fprintf(stderr, "%s\n", problem->c_str());
                    batch.clear();
                }
            }
        });
        std::printf("explorer=store points=%llu s=%.1f\n", static_cast<unsigned long long>(point_count), store_ms / 1e3);
    }
    Expected<ResultStore> store = ResultStore::open(database, ResultStore::Access::read_only);
    if (!store) return std::fprintf(stderr, "%s\n", store.error().c_str()), 1;

    // On the worker.
    GridRequest request{sweep, grid_metric("iteration_time_s").value(), paths[0], paths[1], {}, GridAggregation::best, {}};
    SweepGrid grid;
    const double grid_ms = median_of_runs([&] { grid = store.value().sweep_grid(request).value(); });
    std::printf("explorer=grid points=%llu cells=%zu aggregated_axes=3 ms=%.1f\n",
                static_cast<unsigned long long>(point_count), grid.cells.size(), grid_ms);
    GridRequest held = request;
    held.fixed = {{paths[2], std::int64_t{3}}, {paths[3], std::int64_t{5}}};
    const double held_ms = median_of_runs([&] { static_cast<void>(store.value().sweep_grid(held).value()); });
    std::printf("explorer=grid_two_axes_held ms=%.1f\n", held_ms);
    const std::string filter = parse_point_filter("fits, pp <= 5, mfu > 0.1", paths).value().where;
    for (const std::string& where : {std::string(), filter}) {
        StoredTable page;
        std::int64_t passing = 0;
        const double page_ms = median_of_runs([&] {
            page = {};
            passing = store.value().count_sweep_points(sweep, where).value();
            if (auto problem = store.value().read_sweep(sweep, page, where, "iteration_time_s IS NULL, iteration_time_s", 100)) {
                std::fprintf(stderr, "%s\n", problem->c_str());
            }
        });
        std::printf("explorer=first_page filter=%s passing=%lld rows=%zu ms=%.1f\n", where.empty() ? "none" : "3_clauses",
                    static_cast<long long>(passing), page.rows.size(), page_ms);
    }

    SweepPareto pareto;
    const GridMetric memory = pareto_costs()[0];
    const double pareto_ms = median_of_runs([&] {
        pareto = store.value().sweep_pareto(sweep, memory, grid_metric("iteration_time_s").value()).value();
    });
    std::printf("explorer=pareto points=%zu front=%zu ms=%.1f\n", pareto.points.size(), pareto.front.size(),
                pareto_ms);

    // On the GUI thread.
    HeatmapView heatmap;
    heatmap.resize(1000, 560);
    heatmap.setGlyphsShown(true);
    static_cast<void>(heatmap.grab());
    const GridMetric metric = grid_metric("iteration_time_s").value();
    const double show_ms = median_of_runs([&] {
        heatmap.showGrid(grid, metric, QStringLiteral("tp"), QStringLiteral("pp"), QStringLiteral("explorer"));
        static_cast<void>(heatmap.grab());
    });
    std::printf("explorer=heatmap cells=%zu show_and_paint_ms=%.1f\n", grid.cells.size(), show_ms);
    const double repaint_ms = median_of_runs([&] { static_cast<void>(heatmap.grab()); });
    std::printf("explorer=heatmap repaint_ms=%.1f\n", repaint_ms);

    StoredTable page;
    if (auto problem = store.value().read_sweep(sweep, page, {}, "iteration_time_s", 100)) return 1;
    SweepPointsModel model;
    QTableView table;
    table.setModel(&model);
    table.resize(1000, 400);
    const double table_ms = median_of_runs([&] {
        model.setPage(paths, page, false);
        table.resizeColumnsToContents();
        static_cast<void>(table.grab());
    });
    std::printf("explorer=table rows=%zu show_and_paint_ms=%.1f\n", page.rows.size(), table_ms);

    HistoryModel history;
    HistoryEntries entries{store.value().sweeps().value(), {}};
    for (std::int64_t r = 0; r < 1000; ++r) entries.runs.push_back({r + 1, "a run", "ok", "2026-11-26T12:00:00Z", 1.0});
    QTableView history_table;
    history_table.setModel(&history);
    history_table.resize(1000, 400);
    const double history_ms = median_of_runs([&] {
        history.setEntries(entries);
        static_cast<void>(history_table.grab());
    });
    std::printf("explorer=history sweeps=1 runs=1000 show_and_paint_ms=%.1f\n", history_ms);

    ParetoView scatter;
    scatter.resize(1000, 400);
    static_cast<void>(scatter.grab());
    const double scatter_ms = median_of_runs([&] {
        scatter.showPareto(pareto, memory, metric);
        static_cast<void>(scatter.grab());
    });
    std::printf("explorer=pareto_view points=%zu show_and_paint_ms=%.1f\n", pareto.points.size(), scatter_ms);
    const double scatter_repaint_ms = median_of_runs([&] { static_cast<void>(scatter.grab()); });
    std::printf("explorer=pareto_view repaint_ms=%.1f\n", scatter_repaint_ms);
    const double near_ms = median_of_runs([&] { static_cast<void>(scatter.pointNear(QPoint(500, 200))); });
    std::printf("explorer=pareto_view point_under_click_ms=%.2f\n", near_ms);
    std::filesystem::remove_all(folder);
    return 0;
}
