#pragma once
// The always-visible line of headline numbers of the latest result: iteration time, samples/s and tokens/s,
// MFU / HFU, peak memory against capacity (red, with the device and the tensor, when a device is out of memory), and
// how the simulation ran; below them, the run's warnings in the words of the report (export/warning_text.h) — out of
// memory aside, which the memory item names. Shows what it is waiting for when there is no result yet, and greys a
// result that belongs to an older scenario while a newer run is under way. In a narrow window the items wrap onto
// more lines, each item kept whole.

#include "analysis/report.h"
#include "run/run_session.h"

#include <QLabel>
#include <QStringList>
#include <QWidget>

namespace parasight::gui {

class SummaryBar : public QWidget {
    Q_OBJECT

public:
    explicit SummaryBar(QWidget* parent = nullptr);
    // What the run session says now (run/run_session.h): numbers, a message, greyed while stale.
    void showRun(const parasight::gui::RunState& state);

    void showReport(const Report& report);
    // No result to show, and why ("The scenario has problems …").
    void showMessage(const QString& message);
    // Whether the numbers shown belong to an older scenario than the one in the editor.
    void setStale(bool stale);
    [[nodiscard]] bool isStale() const { return !label_->isEnabled(); }

    // The items shown, as plain text, for tests: iteration, throughput, utilization, memory, simulation (a message
    // alone when there is no result).
    [[nodiscard]] QStringList texts() const;
    // The warnings shown under the numbers, one sentence each (empty when there are none).
    [[nodiscard]] QStringList warningTexts() const;

private:
    // Items are HTML; each is kept on one line, except out-of-memory details, which may wrap.
    void showItems(const QStringList& items);

    void showWarnings(const Report& report);

    QLabel* label_;
    QLabel* warnings_;
    QStringList warning_texts_;
    bool numbers_shown_ = false;  // a report's numbers, not a message
};

}  // namespace parasight::gui
