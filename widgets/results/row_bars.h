#pragma once
// The result views' chart: a horizontal stacked bar per row of their table — the first row on top, as the table
// lists it — and a bar set per column, named and coloured by the table's header. Hovering a bar shows the cell's
// tooltip; clicking one selects its row in the table.

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QTableView;
class QChart;
class QValueAxis;

namespace parasight::gui {

struct RowBars {
    QStringList row_labels;           // top to bottom, one per table row
    std::vector<int> columns;         // the table's columns stacked, left to right
    std::function<double(int row, int column)> value;  // in the value axis's unit
    QString axis_title;
    double axis_max = 0.0;            // the axis is then rounded up to nice numbers
};

// Adds the bars and their two axes to `chart` for `table`'s model; returns the value axis, for lines drawn against it.
QValueAxis* add_row_bars(QChart& chart, const RowBars& bars, QTableView& table);

}  // namespace parasight::gui
