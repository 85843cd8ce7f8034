#pragma once
// Editors for the strategy tree's cells: a combo box of none / selective / full for recompute, a spin box for the
// whole-number settings (at least 1 layer or micro-batch; 0 ongoing micro-batches means the schedule's own).

#include <QStyledItemDelegate>

namespace parasight::gui {

class StrategyDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace parasight::gui
