#pragma once
// The always-visible line of headline numbers of the latest result: iteration time, samples/s and tokens/s,
// MFU / HFU, peak memory against capacity (red, with the device and the tensor, when a device is out of memory), and
// how the simulation ran. Shows what it is waiting for when there is no result yet, and marks a stale one while a
// newer run is under way.

#include "analysis/report.h"

#include <QLabel>
#include <QWidget>

namespace parasight::gui {

class SummaryBar : public QWidget {
    Q_OBJECT

public:
    explicit SummaryBar(QWidget* parent = nullptr);

    void showReport(const Report& report);
    // No result to show, and why ("Simulating…", "The scenario has problems", …).
    void showMessage(const QString& message);
    // Whether the numbers shown belong to an older scenario than the one in the editor.
    void setStale(bool stale);

    // The texts shown, for tests: iteration, throughput, utilization, memory, simulation.
    [[nodiscard]] QStringList texts() const;

private:
    QLabel* iteration_;
    QLabel* throughput_;
    QLabel* utilization_;
    QLabel* memory_;
    QLabel* simulation_;
};

}  // namespace parasight::gui
