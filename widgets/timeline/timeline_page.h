#pragma once
// The Timeline tab: a tool row (memory lanes, a search box, Export: the visible range as PNG or SVG, the run as a
// Chrome trace), the overview strip of the whole iteration over the Gantt view, and below them the details of the
// event selected or the stretch measured (shown once there is one).

#include "analysis/identical_devices.h"
#include "analysis/timeline_levels.h"
#include "navigation/target_area.h"
#include "run/run_session.h"
#include "target/target.h"

#include <QSplitter>

class QLabel;
class QLineEdit;

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace parasight::gui {

class EventDetails;
class TimelineOverview;
class PlayheadBar;
class TimelineView;

class TimelinePage : public QSplitter {
    Q_OBJECT

public:
    explicit TimelinePage(QWidget* parent = nullptr);
    // What the run session says now (run/run_session.h): numbers, a message, greyed while stale.
    void showRun(const parasight::gui::RunState& state);
    // A run's timeline (what showRun draws for a result).
    void showResult(const std::shared_ptr<const SimulationResult>& result);
    // Brings `target` into view when this view shows it (target/target.h); false when it does not.
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;


    [[nodiscard]] TimelineView* view() const noexcept { return view_; }
    [[nodiscard]] EventDetails* details() const noexcept { return details_; }
    [[nodiscard]] TimelineOverview* overview() const noexcept { return overview_; }
    [[nodiscard]] QLineEdit* searchBox() const noexcept { return search_; }
    [[nodiscard]] PlayheadBar* playhead() const noexcept { return playhead_; }

    // `classes`: which devices did the same (built with `levels`); `capacity_bytes`: a device's memory, for the
    // memory lanes.
    void showTimeline(std::shared_ptr<const TimelineLevels> levels, std::shared_ptr<const IdenticalDevices> classes,
                      double capacity_bytes = 0.0);
    // Another scenario was opened: what was being looked for belongs to the one before (the Find text, the
    // details of a selection or a measured range).
    void startOver();
    void showMessage(const QString& message);

private:
    const SimulationResult* shown_run_ = nullptr;  // the result showRun last drew
    // Selects the next event matching the search box (analysis/event_search.h), in time order, wrapping around.
    void findNext();

    QLineEdit* search_ = nullptr;
    QLabel* search_found_ = nullptr;
    std::vector<EventId> matches_;  // of the search box's text; empty until Enter
    std::size_t next_match_ = 0;
    TimelineOverview* overview_ = nullptr;
    TimelineView* view_ = nullptr;
    PlayheadBar* playhead_ = nullptr;
    EventDetails* details_ = nullptr;
    std::shared_ptr<const TimelineLevels> levels_;
};

}  // namespace parasight::gui
