#pragma once
// Editors for what-if rule cells (whatif/what_if_rules_model.h): a combo box of the choices for a selector (group,
// operation, dimension), a line edit showing what an empty value means for typed ones (layers, NPUs, a delay, a
// factor).

#include <QStyledItemDelegate>

namespace parasight::gui {

class RuleDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace parasight::gui
