#include "results/row_bars.h"

#include <QTableView>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QColor>
#include <QCursor>
#include <QHorizontalStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace parasight::gui {

QValueAxis* add_row_bars(QChart& chart, const RowBars& bars, QTableView& table) {
    const QAbstractItemModel* model = table.model();
    const int rows = static_cast<int>(bars.row_labels.size());
    // Qt draws the first category at the bottom: rows go in last to first, so the first is on top.
    const auto row_of = [rows](int bar) { return rows - 1 - bar; };
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.7);
    for (const int column : bars.columns) {
        const QColor color = model->headerData(column, Qt::Horizontal, Qt::DecorationRole).value<QColor>();
        auto* set = new QBarSet(model->headerData(column, Qt::Horizontal).toString());
        set->setColor(color);
        set->setBorderColor(color);
        for (int bar = 0; bar < rows; ++bar) *set << bars.value(row_of(bar), column);
        QObject::connect(set, &QBarSet::hovered, &table, [&table, model, column, row_of](bool on, int bar) {
            if (on) {
                QToolTip::showText(QCursor::pos(), model->index(row_of(bar), column).data(Qt::ToolTipRole).toString(),
                                   &table);
            } else {
                QToolTip::hideText();
            }
        });
        QObject::connect(set, &QBarSet::clicked, &table, [&table, row_of](int bar) { table.selectRow(row_of(bar)); });
        series->append(set);
    }
    chart.addSeries(series);

    QStringList labels = bars.row_labels;
    std::reverse(labels.begin(), labels.end());
    auto* categories = new QBarCategoryAxis;
    categories->append(labels);
    auto* values = new QValueAxis;
    values->setTitleText(bars.axis_title);
    values->setRange(0.0, bars.axis_max);
    values->setLabelFormat(QStringLiteral("%g"));
    values->applyNiceNumbers();
    chart.addAxis(categories, Qt::AlignLeft);
    chart.addAxis(values, Qt::AlignBottom);
    series->attachAxis(categories);
    series->attachAxis(values);
    return values;
}

}  // namespace parasight::gui
