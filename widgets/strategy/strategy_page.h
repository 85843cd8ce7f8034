#pragma once
// The Strategy tab: the stage bar (stage_bar.h) above the strategy tree (strategy_tree_model.h) in a tree view with
// its editors (strategy_delegate.h). A right-click on a value set on its node resets it to the inherited one. After
// a run the bar is shaded and the tree's stages show their compute time and peak memory per device. The loader's
// reasons against the tree stand above it while the scenario has them.

#include "document/scenario_document.h"
#include "navigation/target_area.h"
#include "run/run_session.h"
#include "run/simulation_result.h"
#include "strategy/stage_bar.h"
#include "strategy/strategy_tree_model.h"
#include "target/target.h"

#include <optional>

#include <QWidget>

#include <memory>

class QLabel;
class QTreeView;

namespace parasight::gui {

class ProblemBanner;

class StrategyPage : public QWidget {
    Q_OBJECT

public:
    explicit StrategyPage(ScenarioDocument& document, QWidget* parent = nullptr);
    // What the run session says now (run/run_session.h): numbers, a message, greyed while stale.
    void showRun(const parasight::gui::RunState& state);
    // Brings `target` into view when this view shows it (target/target.h); false when it does not.
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;


    [[nodiscard]] StrategyTreeModel* model() const noexcept { return model_; }
    [[nodiscard]] QTreeView* tree() const noexcept { return tree_; }
    [[nodiscard]] StageBar* stageBar() const noexcept { return bar_; }
    [[nodiscard]] QString problemText() const;

    void showResult(const std::shared_ptr<const SimulationResult>& result);
    // Moves `count` layers from stage `from` to stage `to` (what a drag on the stage bar does; a stage keeps at least
    // one); false when none can move.
    bool moveLayers(int from, int to, int count = 1);

private:
    const SimulationResult* shown_run_ = nullptr;  // the result showRun last drew
    void refresh();
    void showContextMenu(const QPoint& point);

    ScenarioDocument& document_;
    StrategyTreeModel* model_ = nullptr;
    StageBar* bar_ = nullptr;
    ProblemBanner* problem_ = nullptr;
    QTreeView* tree_ = nullptr;
    std::vector<double> stage_compute_s_;
};

}  // namespace parasight::gui
