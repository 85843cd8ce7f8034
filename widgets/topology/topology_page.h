#pragma once
// The Topology tab: the cluster drawn (TopologyCanvas) and edited. A palette above it adds a ring, fully connected
// or switch dimension around the others; beside it the dimensions, innermost first — checked ones drawn with every
// member — with Inward / Outward / Remove, and an inspector of the chosen one's kind, size, bandwidth and
// latency (the scenario form's fields, units as in YAML). Under them the parallel layout: the axes in mapping order,
// innermost first, reordered by dragging. A click on an NPU colours the members of its tp, cp, ep, dp and pp groups
// (core ParallelLayout) with a legend and says its coordinates and ranks. Every edit is an undoable edit of the
// document; a device count that does not match the degrees is shown above the canvas with the loader's reason. Under
// them, one collective timed on the cluster (CollectiveProbeBox).

#include "document/scenario_document.h"
#include "navigation/target_area.h"
#include "run/run_session.h"
#include "run/simulation_result.h"
#include "target/target.h"
#include "topology/topology_canvas.h"

#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;

namespace parasight::gui {

class CollectiveProbeBox;
class ProblemBanner;
class ScenarioForm;

class TopologyPage : public QWidget {
    Q_OBJECT

public:
    explicit TopologyPage(ScenarioDocument& document, QWidget* parent = nullptr);
    // What the run session says now (run/run_session.h): numbers, a message, greyed while stale.
    void showRun(const parasight::gui::RunState& state);
    // Brings `target` into view when this view shows it (target/target.h); false when it does not.
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;


    [[nodiscard]] TopologyCanvas* canvas() const noexcept { return canvas_; }
    [[nodiscard]] QListWidget* dimensionList() const noexcept { return dimensions_; }
    [[nodiscard]] QListWidget* mappingStrip() const noexcept { return mapping_; }
    [[nodiscard]] ScenarioForm* inspector() const noexcept { return inspector_; }
    [[nodiscard]] CollectiveProbeBox* collectiveProbe() const noexcept { return probe_; }
    // What the banner above the canvas says: why the degrees and the topology disagree; empty when they agree.
    [[nodiscard]] QString problemText() const;
    // What the panel says of the chosen NPU; empty when none is chosen.
    [[nodiscard]] QString npuText() const;
    // The legend of the chosen NPU's groups (rich text, a line each).
    [[nodiscard]] QString legendText() const;
    // What the panel says of the last run's traffic.
    [[nodiscard]] QString trafficText() const;

    // After a run: its traffic on the links and each group's bottleneck dimension, when it ran this topology.
    void showResult(const std::shared_ptr<const SimulationResult>& result);
    void chooseDimension(std::optional<std::size_t> dimension);
    // Colours `npu`'s groups (none: clears them).
    void chooseNpu(std::optional<std::int64_t> npu);
    void addDimension(DimensionKind kind);
    void moveDimension(std::size_t dimension, bool outward);
    void removeDimension(std::size_t dimension);
    // Writes the mapping strip's order to the scenario (what a drag in it does).
    void applyMappingStrip();

private:
    void refresh();
    void refreshDimensions();
    void refreshMapping();
    void refreshGroups();
    void refreshTraffic();

    ScenarioDocument& document_;
    TopologyCanvas* canvas_ = nullptr;
    ProblemBanner* problem_ = nullptr;
    QListWidget* dimensions_ = nullptr;
    QPushButton* move_in_ = nullptr;
    QPushButton* move_out_ = nullptr;
    QPushButton* remove_ = nullptr;
    ScenarioForm* inspector_ = nullptr;
    QLabel* inspector_hint_ = nullptr;
    QListWidget* mapping_ = nullptr;
    QLabel* npu_info_ = nullptr;
    QLabel* legend_ = nullptr;
    QLabel* traffic_ = nullptr;
    CollectiveProbeBox* probe_ = nullptr;
    std::optional<std::size_t> chosen_dimension_;
    std::optional<std::int64_t> chosen_npu_;
    bool refreshing_ = false;
};

}  // namespace parasight::gui
