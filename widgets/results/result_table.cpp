#include "results/result_table.h"

#include <QHeaderView>
#include <QTableView>

namespace parasight::gui {

QTableView* make_result_table(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setMinimumHeight(60);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setAccessibleName(name);
    return table;
}

}  // namespace parasight::gui
