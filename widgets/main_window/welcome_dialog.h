#pragma once
// The welcome at first start (Help → Welcome shows it again): what ParaSight is for in two lines, the bundled lessons
// in course order and the scenario presets to start from, and whether to show it at the next start (the setting
// "welcome/at_start", true until unticked).

#include "lesson/bundled_lessons.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QListWidget;
class QPushButton;

namespace parasight::gui {

class WelcomeDialog : public QDialog {
    Q_OBJECT
public:
    explicit WelcomeDialog(QWidget* parent = nullptr);

    // Whether the welcome shows at start, as its box was last left.
    [[nodiscard]] static bool showsAtStart();

    [[nodiscard]] QListWidget* lessonList() const noexcept { return lessons_; }
    [[nodiscard]] QListWidget* scenarioList() const noexcept { return scenarios_; }
    [[nodiscard]] QCheckBox* atStartBox() const noexcept { return at_start_; }
    [[nodiscard]] QPushButton* openButton() const noexcept { return open_; }

Q_SIGNALS:
    // A bundled lesson chosen, then the dialog closes.
    void lessonChosen(const Lesson& lesson);
    // A scenario preset chosen (its id), then the dialog closes.
    void scenarioChosen(const QString& id);

private:
    void openChosen();

    std::vector<BundledLesson> bundled_;
    QListWidget* lessons_ = nullptr;
    QListWidget* scenarios_ = nullptr;
    QCheckBox* at_start_ = nullptr;
    QPushButton* open_ = nullptr;
};

}  // namespace parasight::gui
