#include "strategy/strategy_page.h"

#include "analysis/stage_figures.h"

#include "document/strategy_edits.h"
#include "problems/problem_banner.h"
#include "strategy/strategy_delegate.h"

#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTreeView>
#include <QVBoxLayout>

namespace parasight::gui {

StrategyPage::StrategyPage(ScenarioDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
    setObjectName(QStringLiteral("StrategyPage"));
    auto* title = new QLabel(tr("Pipeline stages and their layers — drag a stage onto another to move a layer there, "
                                "or the border between two stages to move several"),
                             this);
    title->setWordWrap(true);
    bar_ = new StageBar(this);
    connect(bar_, &StageBar::layersMoveRequested, this, [this](int from, int to, int count) { moveLayers(from, to, count); });
    problem_ = new ProblemBanner({QStringLiteral("strategy_tree"), QStringLiteral("parallelism.pp")}, this);
    problem_->setObjectName(QStringLiteral("StrategyProblem"));

    model_ = new StrategyTreeModel(document_, this);
    tree_ = new QTreeView(this);
    tree_->setObjectName(QStringLiteral("StrategyTree"));
    tree_->setModel(model_);
    tree_->setItemDelegate(new StrategyDelegate(tree_));
    tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::SelectedClicked);
    tree_->setAlternatingRowColors(true);
    tree_->setUniformRowHeights(true);
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(false);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tree_, &QTreeView::customContextMenuRequested, this, &StrategyPage::showContextMenu);
    // The model and its stages open; layers, blocks and operations one click away.
    connect(model_, &QAbstractItemModel::modelReset, this, [this] { tree_->expandToDepth(0); });
    tree_->expandToDepth(0);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(bar_);
    layout->addWidget(problem_);
    layout->addWidget(tree_, 1);
    connect(&document_, &ScenarioDocument::scenarioChanged, this, &StrategyPage::refresh);
    refresh();
}

QString StrategyPage::problemText() const { return problem_->shownText(); }

void StrategyPage::refresh() {
    problem_->showProblems(document_.problems());
    std::vector<int> layers;
    if (const StrategyTree* tree = model_->tree()) {
        for (int s = 0; s < tree->stage_count(); ++s) layers.push_back(tree->layers_of_stage(s));
    }
    if (layers.size() != stage_compute_s_.size()) stage_compute_s_.clear();
    bar_->showStages(std::move(layers), stage_compute_s_);
}

void StrategyPage::showResult(const std::shared_ptr<const SimulationResult>& result) {
    // Each stage's busiest device's compute time, and its fullest device's peak memory.
    const Report& report = result->simulation.report;
    std::vector<StageResult> stages;
    for (const StageFigures& figures : stage_figures(report)) {
        if (figures.stage < 0) continue;
        if (static_cast<std::size_t>(figures.stage) >= stages.size()) stages.resize(static_cast<std::size_t>(figures.stage) + 1);
        StageResult& stage = stages[static_cast<std::size_t>(figures.stage)];
        stage.compute_s = figures.busiest_compute_s;
        stage.peak_memory_bytes = report.per_device[figures.fullest_device].peak_memory_bytes;
    }
    stage_compute_s_.clear();
    for (const StageResult& stage : stages) stage_compute_s_.push_back(stage.compute_s);
    model_->setRunResults(std::move(stages), result->layer_times);
    refresh();
}

bool StrategyPage::moveLayers(int from, int to, int count) {
    const StrategyTree* tree = model_->tree();
    if (tree == nullptr) return false;
    Scenario moved = document_.scenario();
    if (!move_stage_layers(moved, *tree, from, to, count)) return false;
    document_.edit(count == 1 ? tr("Move a layer from stage %1 to stage %2").arg(from).arg(to)
                              : tr("Move %1 layers from stage %2 to stage %3").arg(count).arg(from).arg(to),
                   QString(), [&moved](Scenario& scenario) { scenario = moved; });
    return true;
}

void StrategyPage::showContextMenu(const QPoint& point) {
    const QModelIndex index = tree_->indexAt(point);
    if (!model_->isExplicit(index)) return;
    QMenu menu(this);
    menu.addAction(tr("Reset to Inherited"), this, [this, index] { model_->resetToInherited(index); });
    menu.exec(tree_->viewport()->mapToGlobal(point));
}

void StrategyPage::showRun(const RunState& state) {
    // Run numbers beside the tree only from a result of the scenario being edited: a stale one's stages may not be
    // this tree's, and a failed run has none.
    const SimulationResult* current = state.kind == RunState::Kind::result && !state.stale ? state.result.get() : nullptr;
    if (current == shown_run_) return;
    shown_run_ = current;
    if (current != nullptr) {
        showResult(state.result);
    } else {
        stage_compute_s_.clear();
        model_->setRunResults({}, {});
        refresh();
    }
}


namespace {

// The node of `tree` that `path` names ("stage[2]", "layer[5].mlp"), if it has one.
std::optional<int> node_named(const StrategyTree& tree, const std::string& path) {
    const std::optional<NodePath> wanted = parse_node_path(path);
    if (!wanted && path != "model") return std::nullopt;
    for (std::size_t node = 0; node < tree.nodes().size(); ++node) {
        const NodePath& here = tree.nodes()[node].path;
        if (wanted ? here == *wanted : here.kind == StrategyNodeKind::model) return static_cast<int>(node);
    }
    return std::nullopt;
}

}  // namespace

bool StrategyPage::reveal(const Target& target) {
    if (target.kind != TargetKind::strategy_node || model_->tree() == nullptr) return false;
    const std::optional<int> node = node_named(*model_->tree(), target.name);
    if (!node) return false;
    const QModelIndex index = model_->indexOfNode(*node);
    tree_->expand(index.parent());
    tree_->setCurrentIndex(index);
    tree_->scrollTo(index);
    return true;
}

std::optional<TargetArea> StrategyPage::areaOf(const Target& target) const {
    if (target.kind != TargetKind::strategy_node || model_->tree() == nullptr) return std::nullopt;
    const std::optional<int> node = node_named(*model_->tree(), target.name);
    if (!node) return std::nullopt;
    // The node's whole row.
    const QModelIndex first = model_->indexOfNode(*node);
    const QModelIndex last = model_->indexOfNode(*node, StrategyTreeModel::column_count - 1);
    return TargetArea{tree_->viewport(), tree_->visualRect(first).united(tree_->visualRect(last))};
}

}  // namespace parasight::gui
