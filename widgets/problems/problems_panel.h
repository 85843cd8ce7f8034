#pragma once
// The Problems panel: a dock listing the scenario's problems, wrapped to its width, and the count in the status bar
// that opens and closes it. It opens only when asked — appearing on an edit, it took a quarter of the window for one
// line and squeezed the views under the pointer — and closes when there is nothing to list. Choosing a problem names
// its scenario path (problemChosen) for the window to reveal.

#include "diagnostics/diagnostic.h"
#include "problems/problem_list_model.h"

#include <QDockWidget>

class QListView;
class QMainWindow;
class QToolButton;

namespace parasight::gui {

class ProblemsPanel : public QDockWidget {
    Q_OBJECT

public:
    // Docked at the bottom of `window`, hidden; its count goes into the window's status bar.
    explicit ProblemsPanel(QMainWindow* window);

    [[nodiscard]] ProblemListModel* model() const noexcept { return model_; }
    [[nodiscard]] QListView* list() const noexcept { return list_; }
    [[nodiscard]] QToolButton* countButton() const noexcept { return count_; }

    // Lists `problems`, says how many on the count ("⚠ 3 problems"); none: the count and the panel go.
    void setProblems(const Diagnostics& problems);
    // Hides the panel and its count while another page lists the problems.
    void hideAll();

Q_SIGNALS:
    // A problem was chosen (clicked or activated): its scenario path, empty when it has none.
    void problemChosen(const QString& path);

private:
    void toggle();

    QMainWindow* window_;
    ProblemListModel* model_;
    QListView* list_;
    QToolButton* count_;
};

}  // namespace parasight::gui
