#pragma once
// The strategy tree (core StrategyTree, Proteus §4) as an item model for the Strategy tab: the model (its root, the
// global parallelism) → pipeline stages → layers → attention / MLP blocks → operations, with a column per setting —
// layers, micro-batches and max ongoing micro-batches on stages, recompute everywhere — and, after a run, the forward
// and backward time per device of each stage, layer and block (core layer_times; backward with recompute) and each
// stage's compute time and peak memory per device. A value set on the node itself is bold; an inherited one grey,
// its tooltip naming the node it comes from. Editing a cell is an undoable edit of the document writing the same
// strategy_tree entry a file would hold (document/strategy_edits.h); a node whose entry has a problem shows the
// loader's reason. The tree is that of the newest valid scenario: while an edit leaves the scenario invalid, the
// last valid tree stays, with the problems on its nodes.

#include "document/scenario_document.h"
#include "document/strategy_edits.h"
#include "analysis/layer_times.h"
#include "strategy/strategy_tree.h"

#include <QAbstractItemModel>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace parasight::gui {

// After a run: a stage's compute time and peak memory on its devices (the busiest one's).
struct StageResult {
    double compute_s = 0.0;
    double peak_memory_bytes = 0.0;
};

class StrategyTreeModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column { node_column, layers_column, micro_batches_column, max_ongoing_column, recompute_column,
                  forward_column, backward_column, compute_column, memory_column, column_count };

    explicit StrategyTreeModel(ScenarioDocument& document, QObject* parent = nullptr);

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // The tree shown; null before the document was ever valid.
    [[nodiscard]] const StrategyTree* tree() const noexcept { return tree_.get(); }
    [[nodiscard]] QModelIndex indexOfNode(int node, int column = node_column) const;
    // Whether the cell's value is set on its node (bold), so that it can be reset to the inherited one.
    [[nodiscard]] bool isExplicit(const QModelIndex& index) const;
    // Resets the cell's value to the inherited one (an undoable edit); false when it is not explicit.
    bool resetToInherited(const QModelIndex& index);
    // The loader's reasons against a node's strategy_tree entry, one per line; empty when it has none.
    [[nodiscard]] QString problemOf(int node) const;
    // Shows a run's results in the time and memory columns (empty: none).
    void setRunResults(std::vector<StageResult> stages, std::vector<LayerTimes> layers);

private:
    // The run's columns changed under `parent`: one dataChanged for its children, then theirs (one a node took
    // ~12 ms of the GUI thread for a tree of 100 000 entries).
    void announceRunColumns(const QModelIndex& parent);

    void refresh();
    [[nodiscard]] std::optional<StrategyField> fieldOf(int column) const;
    [[nodiscard]] QVariant display(int node, int column) const;
    [[nodiscard]] QVariant editValue(int node, int column) const;
    [[nodiscard]] std::optional<std::pair<bool, std::string>> explicitAndSource(int node, int column) const;
    [[nodiscard]] bool editable(int node, int column) const;
    // A node's forward and backward (with recompute) time from the run, if it has them.
    [[nodiscard]] std::optional<PassTimes> passTimes(int node) const;

    ScenarioDocument& document_;
    std::shared_ptr<const StrategyTree> tree_;  // the document's, kept while an edit leaves it invalid
    std::vector<int> row_in_parent_;           // by node
    std::map<int, QStringList> problems_;      // by node
    std::vector<StageResult> stage_results_;
    std::vector<LayerTimes> layer_times_;
};

}  // namespace parasight::gui
