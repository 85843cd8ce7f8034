#pragma once
// A lesson as the class follows it (docs/lessons.md): its title and where it is ("Step 2 of 4"), the step's title and
// narrative (Markdown), its question — a guess typed or chosen and committed before the answer shows, a hint on
// demand, then the simulation's number and how far the guess was — and Back / Next. The window sets each step's
// scenario, tab and targets when the panel asks for a step (stepChosen), and hands it every run (setRun): the answer
// is evaluated on the run on screen, so it follows the student's changes to the scenario.

#include "lesson/lesson_handout.h"
#include "lesson/lesson_run.h"
#include "scenario_file/lesson_file.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;
class QLineEdit;
class QPushButton;
class QTextBrowser;

namespace parasight::gui {

class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // Starts `lesson` at step `step` (from 0; its first by default; stepChosen follows).
    void showLesson(Lesson lesson, int step = 0);
    [[nodiscard]] const std::optional<Lesson>& lesson() const noexcept { return lesson_; }
    [[nodiscard]] int step() const noexcept { return step_; }
    // Goes to step `index` (from 0): its guess forgotten, stepChosen sent.
    void setStep(int index);
    // Opens the step's scenario again as the step set it, dropping the students' changes to it (Reset Step).
    void resetStep();
    // The lesson's per-student variant (0: as written; docs/lessons.md): every step opens again in it, the guesses
    // and runs of the other dropped. Its box shows only for a lesson with variants.
    void setVariant(int variant);
    [[nodiscard]] int variant() const noexcept { return variant_; }
    // Whether the step's scenario is locked: Try It (which asks to unlock it) is offered while it is.
    void setLocked(bool locked);
    [[nodiscard]] QPushButton* tryItButton() const noexcept { return try_it_; }
    // A question with a range (a slider) takes its guess from it; Commit Guess commits where it is.
    [[nodiscard]] QSlider* guessSlider() const noexcept { return slider_; }
    [[nodiscard]] QPushButton* commitButton() const noexcept { return commit_; }
    // The run on screen, for this step (none: no result yet, or it failed), and its scenario as scenario_writer writes
    // it — what the step's challenge is judged on.
    void setRun(const LessonRun* run, const std::string& scenario_yaml = {});
    // Each step's run last on screen (none for a step not shown yet, or whose run failed).
    [[nodiscard]] const std::vector<std::optional<LessonRun>>& runs() const noexcept { return runs_; }

    // The guess, as typed ("25%", "0.25") or chosen; false (and said) when it is not a number.
    bool commitGuess(const QString& guess);
    [[nodiscard]] QString answerText() const;      // empty until a guess is committed
    [[nodiscard]] QString explanationMarkdown() const;  // likewise
    [[nodiscard]] QString counterText() const;     // "Step 2 of 4"
    [[nodiscard]] QString narrativeMarkdown() const;
    [[nodiscard]] QPushButton* nextButton() const noexcept { return next_; }
    [[nodiscard]] QPushButton* backButton() const noexcept { return back_; }
    [[nodiscard]] QPushButton* resetButton() const noexcept { return reset_; }

    // Presenting (the window's presentation mode): the teacher's notes hidden, the step counter large.
    void setPresenting(bool on);
    [[nodiscard]] QString notesText() const;  // empty when hidden or the step has none
    // The step's challenge and how the run on screen does ("Challenge: … — not yet: …"); empty without one.
    [[nodiscard]] QString challengeText() const;
    // Whether the step asks a question not yet guessed: the window hides the run's numbers meanwhile.
    [[nodiscard]] bool awaitingGuess() const;

protected:
    void changeEvent(QEvent* event) override;

Q_SIGNALS:
    // The window shows step `index`: its scenario, tab and targets.
    void stepChosen(int index);
    // awaitingGuess() changed.
    void awaitingGuessChanged(bool awaiting);
    // The Handout button's choice: a handout for the students, or the teacher's with the answers.
    void handoutRequested(HandoutReader reader);
    // Try It: the students may change the step's scenario.
    void tryItRequested();

private:
    void showStep();
    // The step's narrative with the run's numbers in it ({{EXPR}}: lesson/lesson_text.h).
    void showNarrative();
    void showVariant();
    // The slider's guess, on the question's range.
    [[nodiscard]] double sliderGuess() const;
    // The runs of the earlier steps this one names (step[K]) that are not there yet.
    void runEarlierSteps();
    [[nodiscard]] QString filled(const std::string& text) const;
    void updateAnswer();
    void applyFonts();
    void updateChallenge();
    void sayAwaiting();

    std::optional<Lesson> lesson_;
    int step_ = 0;
    std::vector<std::optional<LessonRun>> runs_;  // by step: the run last on screen for it
    std::optional<double> guess_;
    bool awaiting_ = false;  // as last said
    QToolButton* handout_ = nullptr;
    QPushButton* try_it_ = nullptr;
    QSlider* slider_ = nullptr;  // a question with a range: the guess
    QLabel* slider_value_ = nullptr;
    static constexpr int slider_steps = 1000;
    QLabel* variant_label_ = nullptr;
    QSpinBox* variant_box_ = nullptr;
    QLabel* variant_values_ = nullptr;
    int variant_ = 0;
    QLabel* title_ = nullptr;
    QLabel* counter_ = nullptr;
    QLabel* step_title_ = nullptr;
    QTextBrowser* narrative_ = nullptr;
    QLabel* notes_ = nullptr;
    QLabel* challenge_ = nullptr;
    std::string step_yaml_;  // the step's scenario as it set it, for its challenge's kept fields
    std::string run_yaml_;   // the run on screen's
    bool presenting_ = false;
    QWidget* question_ = nullptr;
    QLabel* prompt_ = nullptr;
    QLineEdit* guess_edit_ = nullptr;
    QComboBox* choices_ = nullptr;
    QPushButton* commit_ = nullptr;
    QPushButton* hint_button_ = nullptr;
    QLabel* hint_ = nullptr;
    QLabel* answer_ = nullptr;
    QTextBrowser* explanation_ = nullptr;  // the question's, once guessed
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
    QPushButton* reset_ = nullptr;
};

}  // namespace parasight::gui
