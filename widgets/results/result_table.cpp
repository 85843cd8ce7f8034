#include "results/result_table.h"

#include "results/swatch_header.h"

#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <vector>

namespace parasight::gui {

namespace {

// Spreads the width a table's columns leave over among them, so that a table at 1920 px fills its view rather than
// ending at its contents' width with the rest blank; narrower than its contents, it keeps their widths and scrolls.
// Fitted again, once control returns to the event loop, whenever the table is resized or its model changes.
class ColumnFitter : public QObject {
public:
    explicit ColumnFitter(QTableView* table) : QObject(table), table_(table) {
        table->installEventFilter(this);
        QAbstractItemModel* model = table->model();
        const auto later = [this] { schedule(); };
        connect(model, &QAbstractItemModel::modelReset, this, later);
        connect(model, &QAbstractItemModel::layoutChanged, this, later);
        connect(model, &QAbstractItemModel::dataChanged, this, later);
        connect(model, &QAbstractItemModel::rowsInserted, this, later);
        connect(model, &QAbstractItemModel::columnsInserted, this, later);
        connect(model, &QAbstractItemModel::headerDataChanged, this, later);
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == table_ && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) schedule();
        return false;
    }

private:
    void schedule() {
        if (scheduled_) return;
        scheduled_ = true;
        QTimer::singleShot(0, this, [this] {
            scheduled_ = false;
            fit();
        });
    }

    // A column's width for its contents and its header (QTableView hides sizeHintForColumn; its base shows it).
    [[nodiscard]] int contents_width(int column) const {
        const QAbstractItemView* view = table_;
        return std::max(view->sizeHintForColumn(column), table_->horizontalHeader()->sectionSizeHint(column));
    }

    void fit() {
        QHeaderView* header = table_->horizontalHeader();
        std::vector<int> shown;
        int contents = 0;
        for (int column = 0; column < header->count(); ++column) {
            if (table_->isColumnHidden(column)) continue;
            shown.push_back(column);
            contents += contents_width(column);
        }
        if (shown.empty()) return;
        const int left = std::max(0, table_->viewport()->width() - contents);
        const int share = left / static_cast<int>(shown.size());
        int remainder = left - share * static_cast<int>(shown.size());
        for (const int column : shown) {
            header->resizeSection(column, contents_width(column) + share + (remainder-- > 0 ? 1 : 0));
        }
    }

    QTableView* table_;
    bool scheduled_ = false;
};

}  // namespace

QTableView* make_result_table(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setHorizontalHeader(new SwatchHeader(Qt::Horizontal, table));
    table->setVerticalHeader(new SwatchHeader(Qt::Vertical, table));
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setMinimumHeight(60);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setAccessibleName(name);
    new ColumnFitter(table);
    return table;
}

void on_row_chosen(QTableView& table, QObject* context, std::function<void(int row)> chosen) {
    QObject::connect(table.selectionModel(), &QItemSelectionModel::currentRowChanged, context,
                     [chosen = std::move(chosen)](const QModelIndex& current) {
                         if (current.isValid()) chosen(current.row());
                     });
}

}  // namespace parasight::gui
