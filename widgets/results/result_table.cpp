#include "results/result_table.h"

#include <QHeaderView>
#include <QItemSelectionModel>
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

void on_row_chosen(QTableView& table, QObject* context, std::function<void(int row)> chosen) {
    QObject::connect(table.selectionModel(), &QItemSelectionModel::currentRowChanged, context,
                     [chosen = std::move(chosen)](const QModelIndex& current) {
                         if (current.isValid()) chosen(current.row());
                     });
}

}  // namespace parasight::gui
