#pragma once
// The table under a result view's chart: whole rows selected, read-only, alternating rows, rows as tall as their
// text, small enough for a small window.

class QAbstractItemModel;
class QString;
class QTableView;
class QWidget;

namespace parasight::gui {

[[nodiscard]] QTableView* make_result_table(QAbstractItemModel* model, const QString& name, QWidget* parent);

}  // namespace parasight::gui
