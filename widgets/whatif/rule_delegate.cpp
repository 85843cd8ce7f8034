#include "whatif/rule_delegate.h"

#include "whatif/what_if_rules_model.h"

#include <QComboBox>
#include <QLineEdit>

namespace parasight::gui {

QWidget* RuleDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const {
    const QStringList choices = index.data(WhatIfRulesModel::ChoicesRole).toStringList();
    if (!choices.isEmpty()) {
        auto* combo = new QComboBox(parent);
        combo->addItems(choices);
        // A choice commits at once, as the form's combo boxes do.
        connect(combo, &QComboBox::activated, this, [this, combo] {
            Q_EMIT const_cast<RuleDelegate*>(this)->commitData(combo);
            Q_EMIT const_cast<RuleDelegate*>(this)->closeEditor(combo);
        });
        return combo;
    }
    auto* line = new QLineEdit(parent);
    line->setPlaceholderText(index.data(WhatIfRulesModel::PlaceholderRole).toString());
    return line;
}

void RuleDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    const QString text = index.data(Qt::EditRole).toString();
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        combo->setCurrentIndex(combo->findText(text));
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        line->setText(text);
    }
}

void RuleDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        model->setData(index, combo->currentText());
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        model->setData(index, line->text());
    }
}

}  // namespace parasight::gui
