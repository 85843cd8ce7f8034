#include "strategy/strategy_tree_model.h"

#include "common/enum_names.h"
#include "style/activity_colors.h"
#include "style/quantity_text.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QRegularExpression>

namespace parasight::gui {

namespace {

QString text_of(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

QString recompute_text(Recompute recompute) { return text_of(name_of(recompute, recompute_names)); }

// Where an inherited value comes from, as a tooltip says it.
QString source_text(const std::string& source) {
    if (source == "parallelism") return QCoreApplication::translate("StrategyTreeModel", "the global parallelism");
    return text_of(source);
}

// A stage's layers as runs of consecutive ones, "0–5" or, interleaved, "0–3, 8–11"; past four runs the first two,
// an ellipsis and the last ("15, 31, …, 111").
QString layer_runs_text(const std::vector<int>& layers) {
    QStringList runs;
    for (std::size_t i = 0; i < layers.size();) {
        std::size_t end = i + 1;
        while (end < layers.size() && layers[end] == layers[end - 1] + 1) ++end;
        runs << (end - i == 1 ? QString::number(layers[i])
                              : QStringLiteral("%1–%2").arg(layers[i]).arg(layers[end - 1]));
        i = end;
    }
    if (runs.size() > 4) runs = QStringList{runs[0], runs[1], QStringLiteral("…"), runs.back()};
    return runs.join(QStringLiteral(", "));
}

}  // namespace

StrategyTreeModel::StrategyTreeModel(ScenarioDocument& document, QObject* parent)
    : QAbstractItemModel(parent), document_(document) {
    connect(&document_, &ScenarioDocument::scenarioChanged, this, &StrategyTreeModel::refresh);
    refresh();
}

void StrategyTreeModel::refresh() {
    // Built where the document's value was validated (for an opened file, on the worker that read it).
    std::shared_ptr<const StrategyTree> next = document_.strategyTree();
    const auto same_shape = [](const StrategyTree& a, const StrategyTree& b) {
        if (a.nodes().size() != b.nodes().size()) return false;
        for (std::size_t i = 0; i < a.nodes().size(); ++i) {
            if (a.nodes()[i].path != b.nodes()[i].path) return false;
        }
        return true;
    };
    // The problems on the nodes their strategy_tree entries name ("strategy_tree[2].layers": entry 2's node).
    std::map<int, QStringList> problems;
    const StrategyTree* shown = next ? next.get() : tree_.get();
    static const QRegularExpression entry_path(QStringLiteral("^strategy_tree(?:\\[(\\d+)\\])?"));
    for (const Diagnostic& problem : document_.problems()) {
        const QRegularExpressionMatch match = entry_path.match(QString::fromStdString(problem.path));
        if (!match.hasMatch() || shown == nullptr) continue;
        int node = 0;  // about the whole tree (the layers do not add up): the root
        if (match.hasCaptured(1)) {
            const auto entry = match.captured(1).toULongLong();
            const auto& entries = document_.scenario().strategy_tree;
            const auto path = entry < entries.size() ? parse_node_path(entries[entry].node) : std::nullopt;
            for (std::size_t n = 0; path && n < shown->nodes().size(); ++n) {
                if (shown->nodes()[n].path == *path) node = static_cast<int>(n);
            }
        }
        problems[node] << QString::fromStdString(problem.message);
    }
    if (next && tree_ && same_shape(*next, *tree_)) {
        tree_ = std::move(next);
        problems_ = std::move(problems);
        // Values changed, not the shape: the view keeps what is expanded and selected.
        Q_EMIT dataChanged(index(0, 0), index(0, column_count - 1));
        for (std::size_t n = 0; n < tree_->nodes().size(); ++n) {
            const auto& node = tree_->nodes()[n];
            if (node.children.empty()) continue;
            Q_EMIT dataChanged(indexOfNode(node.children.front()),
                               indexOfNode(node.children.back(), column_count - 1));
        }
        return;
    }
    if (!next) {
        // Invalid: the last valid tree stays, its nodes marked.
        problems_ = std::move(problems);
        if (tree_) Q_EMIT dataChanged(index(0, 0), index(0, column_count - 1));
        for (const auto& [node, reasons] : problems_) {
            Q_EMIT dataChanged(indexOfNode(node), indexOfNode(node, column_count - 1));
        }
        return;
    }
    beginResetModel();
    tree_ = std::move(next);
    problems_ = std::move(problems);
    stage_results_.clear();
    layer_times_.clear();
    row_in_parent_.assign(tree_->nodes().size(), 0);
    for (const StrategyNode& node : tree_->nodes()) {
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            row_in_parent_[static_cast<std::size_t>(node.children[i])] = static_cast<int>(i);
        }
    }
    endResetModel();
}

void StrategyTreeModel::setRunResults(std::vector<StageResult> stages, std::vector<LayerTimes> layers) {
    stage_results_ = std::move(stages);
    layer_times_ = std::move(layers);
    if (tree_) announceRunColumns(QModelIndex());
}

void StrategyTreeModel::announceRunColumns(const QModelIndex& parent) {
    const int rows = rowCount(parent);
    if (rows == 0) return;
    Q_EMIT dataChanged(index(0, forward_column, parent), index(rows - 1, memory_column, parent));
    for (int row = 0; row < rows; ++row) announceRunColumns(index(row, 0, parent));
}

std::optional<PassTimes> StrategyTreeModel::passTimes(int node) const {
    const StrategyNode& n = tree_->nodes().at(static_cast<std::size_t>(node));
    const auto of_layer = [this](int layer) -> const LayerTimes* {
        return layer >= 0 && static_cast<std::size_t>(layer) < layer_times_.size()
                   ? &layer_times_[static_cast<std::size_t>(layer)]
                   : nullptr;
    };
    switch (n.path.kind) {
    case StrategyNodeKind::stage: {
        if (layer_times_.empty()) return std::nullopt;
        PassTimes sum;
        for (int layer = n.first_layer; layer < n.first_layer + n.layer_count; ++layer) {
            if (const LayerTimes* t = of_layer(layer)) {
                sum.forward_s += t->layer.forward_s;
                sum.backward_s += t->layer.backward_s;
                sum.recompute_s += t->layer.recompute_s;
            }
        }
        return sum;
    }
    case StrategyNodeKind::layer:
        if (const LayerTimes* t = of_layer(n.path.index)) return t->layer;
        return std::nullopt;
    case StrategyNodeKind::block:
        if (const LayerTimes* t = of_layer(n.path.index)) {
            return n.path.block == LayerBlock::attention ? t->attention : t->mlp;
        }
        return std::nullopt;
    default: return std::nullopt;
    }
}

QModelIndex StrategyTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!tree_ || row < 0 || column < 0 || column >= column_count) return {};
    if (!parent.isValid()) return row == 0 ? createIndex(0, column, quintptr{0}) : QModelIndex();
    if (parent.column() != 0) return {};
    const StrategyNode& node = tree_->nodes().at(parent.internalId());
    if (row >= static_cast<int>(node.children.size())) return {};
    return createIndex(row, column, static_cast<quintptr>(node.children[static_cast<std::size_t>(row)]));
}

QModelIndex StrategyTreeModel::parent(const QModelIndex& child) const {
    if (!tree_ || !child.isValid()) return {};
    const int parent_node = tree_->nodes().at(child.internalId()).parent;
    if (parent_node < 0) return {};
    return createIndex(row_in_parent_[static_cast<std::size_t>(parent_node)], 0, static_cast<quintptr>(parent_node));
}

int StrategyTreeModel::rowCount(const QModelIndex& parent) const {
    if (!tree_) return 0;
    if (!parent.isValid()) return 1;
    if (parent.column() != 0) return 0;
    return static_cast<int>(tree_->nodes().at(parent.internalId()).children.size());
}

int StrategyTreeModel::columnCount(const QModelIndex&) const { return column_count; }

QModelIndex StrategyTreeModel::indexOfNode(int node, int column) const {
    if (!tree_ || node < 0 || node >= static_cast<int>(tree_->nodes().size())) return {};
    return createIndex(node == 0 ? 0 : row_in_parent_[static_cast<std::size_t>(node)], column, static_cast<quintptr>(node));
}

QVariant StrategyTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case node_column: return tr("Node");
        case layers_column: return tr("Layers");
        case micro_batches_column: return tr("Micro-batches");
        case max_ongoing_column: return tr("Max ongoing");
        case recompute_column: return tr("Recompute");
        case forward_column: return tr("Forward");
        case backward_column: return tr("Backward");
        case compute_column: return tr("Compute");
        case memory_column: return tr("Peak memory");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case node_column:
            return tr("The model, its pipeline stages, their layers and blocks: a value set on a node holds for "
                      "everything under it unless set again there (inherited values are shown lighter)");
        case layers_column: return tr("Layers a pipeline stage holds; stages may hold uneven numbers");
        case micro_batches_column:
            return tr("Micro-batches per iteration on each data-parallel replica (global batch / (dp × micro-batch))");
        case max_ongoing_column:
            return tr("Micro-batches a 1F1B stage may start before its first backward; \"schedule's own\": the "
                      "schedule decides (1F1B: pp − s on stage s, counted from 0; GPipe: every micro-batch)");
        case recompute_column:
            return tr("Activation recomputation for this node: none, selective (the attention core), full (whole "
                      "layers) or selective_op (every second matmul and the element-wise operations)");
        case forward_column: return tr("After a run: forward time per device in the iteration, all micro-batches");
        case backward_column:
            return tr("After a run: backward time per device in the iteration, all micro-batches, recompute included");
        case compute_column: return tr("After a run: the stage's compute time in the iteration, per device");
        case memory_column: return tr("After a run: the stage's peak memory per device");
        default: return {};
        }
    }
    return {};
}

std::optional<StrategyField> StrategyTreeModel::fieldOf(int column) const {
    switch (column) {
    case layers_column: return StrategyField::layers;
    case micro_batches_column: return StrategyField::micro_batches;
    case max_ongoing_column: return StrategyField::max_ongoing_micro_batches;
    case recompute_column: return StrategyField::recompute;
    default: return std::nullopt;
    }
}

// Whether the node's own entry sets the column's value, and the node its value comes from.
std::optional<std::pair<bool, std::string>> StrategyTreeModel::explicitAndSource(int node, int column) const {
    const StrategyNode& n = tree_->nodes().at(static_cast<std::size_t>(node));
    const bool stage = n.path.kind == StrategyNodeKind::stage;
    const StrategyOverride* entry = n.override_index >= 0 ? &tree_->overrides()[static_cast<std::size_t>(n.override_index)] : nullptr;
    switch (column) {
    case layers_column:
        if (!stage) return std::nullopt;
        return std::pair(entry != nullptr && entry->layers.has_value(), std::string("model"));
    case micro_batches_column: {
        if (!stage && node != 0) return std::nullopt;
        const Setting<int> setting = tree_->micro_batches(node);
        return std::pair(setting.is_explicit, setting.source);
    }
    case max_ongoing_column: {
        if (!stage && node != 0) return std::nullopt;
        const Setting<int> setting = tree_->max_ongoing_micro_batches(node);
        return std::pair(setting.is_explicit, setting.source);
    }
    case recompute_column: {
        const Setting<Recompute> setting = tree_->recompute(node);
        return std::pair(setting.is_explicit || node == 0, setting.source);
    }
    default: return std::nullopt;
    }
}

bool StrategyTreeModel::editable(int node, int column) const {
    const StrategyNodeKind kind = tree_->nodes().at(static_cast<std::size_t>(node)).path.kind;
    switch (column) {
    case layers_column:
    case micro_batches_column:
    case max_ongoing_column: return kind == StrategyNodeKind::stage;
    case recompute_column: return true;
    default: return false;
    }
}

QVariant StrategyTreeModel::display(int node, int column) const {
    const StrategyNode& n = tree_->nodes().at(static_cast<std::size_t>(node));
    switch (column) {
    case node_column: {
        const QString name = text_of(to_string(n.path));
        if (n.path.kind == StrategyNodeKind::model || n.path.kind == StrategyNodeKind::stage) {
            // The model's layers, or a stage's in the order its chunks run them (interleaved: not one run).
            std::vector<int> layers;
            if (n.path.kind == StrategyNodeKind::model) {
                for (int layer = 0; layer < n.layer_count; ++layer) layers.push_back(layer);
            } else {
                for (const int child : n.children) {
                    layers.push_back(tree_->nodes()[static_cast<std::size_t>(child)].path.index);
                }
            }
            return layers.size() == 1 ? tr("%1 · layer %2").arg(name).arg(layers.front())
                                      : tr("%1 · layers %2").arg(name, layer_runs_text(layers));
        }
        // A layer's blocks and operations by their own name: "attention", "qkv".
        const qsizetype dot = name.lastIndexOf(u'.');
        return dot < 0 ? name : name.mid(dot + 1);
    }
    case layers_column:
        if (n.path.kind == StrategyNodeKind::stage) return tree_->layers_of_stage(n.path.index);
        if (node == 0) return n.layer_count;
        return {};
    case micro_batches_column:
    case max_ongoing_column: {
        if (!explicitAndSource(node, column)) return {};
        const Setting<int> setting =
            column == micro_batches_column ? tree_->micro_batches(node) : tree_->max_ongoing_micro_batches(node);
        if (column == max_ongoing_column && setting.value == 0) return tr("schedule's own");
        return setting.value;
    }
    case recompute_column: return recompute_text(tree_->recompute(node).value);
    case forward_column:
    case backward_column: {
        const auto times = passTimes(node);
        if (!times) return {};
        return time_text(column == forward_column ? times->forward_s : times->backward_s + times->recompute_s);
    }
    case compute_column:
    case memory_column: {
        if (n.path.kind != StrategyNodeKind::stage) return {};
        const auto stage = static_cast<std::size_t>(n.path.index);
        if (stage >= stage_results_.size()) return {};
        return column == compute_column ? time_text(stage_results_[stage].compute_s)
                                        : bytes_text(stage_results_[stage].peak_memory_bytes);
    }
    default: return {};
    }
}

QVariant StrategyTreeModel::editValue(int node, int column) const {
    switch (column) {
    case layers_column: return display(node, column);
    case micro_batches_column: return tree_->micro_batches(node).value;
    case max_ongoing_column: return tree_->max_ongoing_micro_batches(node).value;
    case recompute_column: return recompute_text(tree_->recompute(node).value);
    default: return {};
    }
}

QVariant StrategyTreeModel::data(const QModelIndex& index, int role) const {
    if (!tree_ || !index.isValid()) return {};
    const int node = static_cast<int>(index.internalId());
    const int column = index.column();
    const auto origin = explicitAndSource(node, column);
    switch (role) {
    case Qt::DisplayRole: return display(node, column);
    case Qt::EditRole: return editValue(node, column);
    case Qt::TextAlignmentRole:
        if (column == node_column || column == recompute_column) return {};
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (origin && origin->first) {
            QFont bold = QGuiApplication::font();
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        if (column == node_column && problems_.contains(node)) return over_capacity_color();
        if (origin && !origin->first) return QGuiApplication::palette().color(QPalette::PlaceholderText);
        return {};
    case Qt::ToolTipRole:
        if (column == node_column && problems_.contains(node)) return problems_.at(node).join(u'\n');
        if (column == backward_column) {
            const auto times = passTimes(node);
            if (times && times->recompute_s > 0.0) {
                return tr("%1 of backward and %2 of recompute").arg(time_text(times->backward_s), time_text(times->recompute_s));
            }
        }
        if (!origin) return {};
        if (column == layers_column && !origin->first) {
            return tr("Shared evenly among the stages whose layers are not given");
        }
        if (node == 0 && column == recompute_column) return tr("Set by parallelism.recompute");
        return origin->first ? tr("Set on this node; right-click to reset it to the inherited value")
                             : tr("Inherited from %1").arg(source_text(origin->second));
    default: return {};
    }
}

Qt::ItemFlags StrategyTreeModel::flags(const QModelIndex& index) const {
    if (!tree_ || !index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (editable(static_cast<int>(index.internalId()), index.column())) flags |= Qt::ItemIsEditable;
    return flags;
}

bool StrategyTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!tree_ || !index.isValid() || role != Qt::EditRole) return false;
    const int node = static_cast<int>(index.internalId());
    const auto field = fieldOf(index.column());
    if (!field || !editable(node, index.column())) return false;
    const std::string name = to_string(tree_->nodes().at(static_cast<std::size_t>(node)).path);
    const QString header = headerData(index.column(), Qt::Horizontal).toString().toLower();
    if (*field == StrategyField::recompute) {
        const auto recompute = value_of(value.toString().toStdString(), recompute_names);
        if (!recompute) return false;
        document_.edit(tr("Set %1's recompute to %2").arg(text_of(name), value.toString()), QString(),
                       [name, recompute](Scenario& s) { set_strategy_recompute(s, name, *recompute); });
        return true;
    }
    bool ok = false;
    const int number = value.toInt(&ok);
    if (!ok) return false;
    document_.edit(tr("Set %1's %2 to %3").arg(text_of(name), header).arg(number), QString(),
                   [name, field, number](Scenario& s) { set_strategy_number(s, name, *field, number); });
    return true;
}

bool StrategyTreeModel::isExplicit(const QModelIndex& index) const {
    if (!tree_ || !index.isValid()) return false;
    const auto origin = explicitAndSource(static_cast<int>(index.internalId()), index.column());
    return origin && origin->first && index.internalId() != 0;
}

bool StrategyTreeModel::resetToInherited(const QModelIndex& index) {
    if (!isExplicit(index)) return false;
    const int node = static_cast<int>(index.internalId());
    const auto field = fieldOf(index.column());
    if (!field) return false;
    const std::string name = to_string(tree_->nodes().at(static_cast<std::size_t>(node)).path);
    const QString header = headerData(index.column(), Qt::Horizontal).toString().toLower();
    document_.edit(tr("Reset %1's %2 to the inherited value").arg(text_of(name), header), QString(),
                   [name, field](Scenario& s) {
                       if (*field == StrategyField::recompute) {
                           set_strategy_recompute(s, name, std::nullopt);
                       } else {
                           set_strategy_number(s, name, *field, std::nullopt);
                       }
                   });
    return true;
}

QString StrategyTreeModel::problemOf(int node) const {
    const auto found = problems_.find(node);
    return found == problems_.end() ? QString() : found->second.join(u'\n');
}

}  // namespace parasight::gui
