#pragma once
// The Sweeps tab: the sweeps a results database holds (docs/store.md) — by default the one parasight-cli sweep fills —
// each as a heatmap of two of its axes (sweeps/heatmap_view.h), the others aggregated by a stated rule, in a chosen
// metric: throughput by default when an axis changes the work per iteration, as the command line ranks. The database
// is read on a worker (a job of run/job_runner.h), never on the GUI thread; nothing is written to it.

#include "run/job_runner.h"
#include "store/sweep_grid.h"

#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace parasight::gui {

class HeatmapView;

class SweepsPage : public QWidget {
    Q_OBJECT

public:
    explicit SweepsPage(QWidget* parent = nullptr);

    // Reads the sweeps of the database at `path` (the default one when empty) and shows the newest.
    void setDatabase(const QString& path);
    [[nodiscard]] const QString& database() const noexcept { return database_; }

    [[nodiscard]] HeatmapView* heatmap() const noexcept { return heatmap_; }
    [[nodiscard]] QComboBox* sweepBox() const noexcept { return sweep_box_; }
    [[nodiscard]] QComboBox* metricBox() const noexcept { return metric_box_; }
    [[nodiscard]] QComboBox* xBox() const noexcept { return x_box_; }
    [[nodiscard]] QComboBox* yBox() const noexcept { return y_box_; }
    [[nodiscard]] QComboBox* ruleBox() const noexcept { return rule_box_; }
    // What the page says above the heatmap: the database and its sweeps, or why there are none.
    [[nodiscard]] QString statusText() const;

    // Reads the scenario of a point of the sweep shown, for scenarioChosen (a double-click on a cell asks so).
    void openPoint(qint64 point);

Q_SIGNALS:
    // The heatmap shows a new grid, or a message in its place.
    void gridShown();
    // A point's scenario was read, to be opened: `title` says which ("sweep:1 point 5 · its name").
    void scenarioChosen(const QString& title, const QString& yaml);
    // It could not be read: why.
    void scenarioRefused(const QString& reason);

private:
    void chooseSweep();
    void requestGrid();
    void showSweeps(const std::vector<SweepSummary>& sweeps);

    QString database_;
    std::vector<SweepSummary> sweeps_;
    JobRunner runner_;        // the sweeps and their grids
    JobRunner point_runner_;  // a point's scenario
    QLabel* status_ = nullptr;
    QComboBox* sweep_box_ = nullptr;
    QComboBox* metric_box_ = nullptr;
    QComboBox* x_box_ = nullptr;
    QComboBox* y_box_ = nullptr;
    QComboBox* rule_box_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
};

}  // namespace parasight::gui
