#include "picture/model_csv.h"

#include "picture/picture_export.h"
#include "store/stored_rows_writer.h"

#include <QAbstractItemModel>

namespace parasight::gui {

std::optional<QString> export_model_csv(const QAbstractItemModel& model, const QString& path) {
    return write_file_atomically(path, [&model](std::ostream& out) {
        StoredRowsWriter csv(out, StoredRowsFormat::csv);
        std::vector<std::string> names;
        for (int column = 0; column < model.columnCount(); ++column) {
            names.push_back(model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString().toStdString());
        }
        csv.columns(names);
        for (int row = 0; row < model.rowCount(); ++row) {
            std::vector<StoredValue> values;
            for (int column = 0; column < model.columnCount(); ++column) {
                values.emplace_back(model.data(model.index(row, column), Qt::DisplayRole).toString().toStdString());
            }
            csv.row(values);
        }
        csv.finish();
    });
}

}  // namespace parasight::gui
