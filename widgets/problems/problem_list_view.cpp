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
    return list;
}

}  // namespace parasight::gui
