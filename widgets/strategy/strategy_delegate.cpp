#include "strategy/strategy_delegate.h"

#include "scenario/scenario.h"
#include "strategy/strategy_tree_model.h"

#include <QComboBox>
#include <QSpinBox>

namespace parasight::gui {

QWidget* StrategyDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    if (index.column() == StrategyTreeModel::recompute_column) {
        auto* box = new QComboBox(parent);
        for (const auto& recompute : recompute_names) {
            box->addItem(QString::fromUtf8(recompute.name.data(), static_cast<qsizetype>(recompute.name.size())));
        }
        return box;
    }
    if (index.column() == StrategyTreeModel::layers_column || index.column() == StrategyTreeModel::micro_batches_column ||
        index.column() == StrategyTreeModel::max_ongoing_column) {
        auto* spin = new QSpinBox(parent);
        // Out-of-range values are the loader's to refuse (with its message); the box only keeps them whole.
        spin->setRange(index.column() == StrategyTreeModel::max_ongoing_column ? 0 : 1, 10'000'000);
        if (index.column() == StrategyTreeModel::max_ongoing_column) spin->setSpecialValueText(tr("schedule's own"));
        return spin;
    }
    return QStyledItemDelegate::createEditor(parent, option, index);
}

void StrategyDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
        box->setCurrentText(index.data(Qt::EditRole).toString());
    } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->setValue(index.data(Qt::EditRole).toInt());
    } else {
        QStyledItemDelegate::setEditorData(editor, index);
    }
}

void StrategyDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
        if (box->currentText() != index.data(Qt::EditRole).toString()) model->setData(index, box->currentText());
    } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->interpretText();
        if (spin->value() != index.data(Qt::EditRole).toInt()) model->setData(index, spin->value());
    } else {
        QStyledItemDelegate::setModelData(editor, model, index);
    }
}

}  // namespace parasight::gui
