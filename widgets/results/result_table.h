#pragma once
// The table under a result view's chart: whole rows selected, read-only, alternating rows, rows as tall as their
// text, small enough for a small window, its columns filling the view's width (each as wide as its contents, and
// what is left shared out among them), each header section's colour drawn as a swatch (results/swatch_header.h).

#include <functional>

class QAbstractItemModel;
class QObject;
class QString;
class QTableView;
class QWidget;

namespace parasight::gui {

[[nodiscard]] QTableView* make_result_table(QAbstractItemModel* model, const QString& name, QWidget* parent);
// Calls `chosen` with the row that becomes current in `table` (chosen in the table, or by clicking its bar).
void on_row_chosen(QTableView& table, QObject* context, std::function<void(int row)> chosen);

}  // namespace parasight::gui
