#include "problems/problem_list_view.h"

namespace parasight::gui {

QListView* make_problem_list(ProblemListModel* model, const QString& object_name, const QString& accessible_name,
                             QWidget* parent) {
    auto* list = new QListView(parent);
    list->setObjectName(object_name);
    list->setAccessibleName(accessible_name);
    list->setModel(model);
    list->setWordWrap(true);
    list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    list->setTextElideMode(Qt::ElideNone);
    list->setResizeMode(QListView::Adjust);
    list->setUniformItemSizes(false);
    list->setSpacing(3);  // one problem from the next
    // Laid out 25 rows a turn of the event loop: 200 word-wrapped problems shaped at once kept the GUI thread 20–30 ms.
    list->setLayoutMode(QListView::Batched);
    list->setBatchSize(25);
    return list;
}

}  // namespace parasight::gui
