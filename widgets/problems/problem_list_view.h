#pragma once
// A list of problems as the window shows them, in the Problems panel and on the page of a file that did not open:
// each message a sentence wrapped to the list's width — never scrolled sideways or cut short — a little apart.

#include "problems/problem_list_model.h"

#include <QListView>

namespace parasight::gui {

[[nodiscard]] QListView* make_problem_list(ProblemListModel* model, const QString& object_name,
                                           const QString& accessible_name, QWidget* parent);

}  // namespace parasight::gui
