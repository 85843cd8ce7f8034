#include "lessons/lesson_panel.h"

#include "common/number_text.h"
#include "lesson/lesson_number.h"
#include "lesson/lesson_text.h"
#include "lesson/lesson_check.h"
#include "scenario_file/scenario_writer.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace parasight::gui {
namespace {

QString number_text(double value) { return QString::fromStdString(lesson_answer_text(value)); }

// "25%" or "0.25" as 0.25; nothing when it is not a number.
std::optional<double> guess_value(QString text) {
    text = text.trimmed();
    const bool percent = text.endsWith(u'%');
    if (percent) text.chop(1);
    const std::optional<double> value = parse_number(text.trimmed().toStdString());
    if (!value) return std::nullopt;
    return percent ? *value / 100.0 : *value;
}

}  // namespace

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("LessonPanel"));
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    counter_ = new QLabel(this);
    step_title_ = new QLabel(this);
    QFont bold = step_title_->font();
    bold.setBold(true);
    step_title_->setFont(bold);
    step_title_->setWordWrap(true);
    narrative_ = new QTextBrowser(this);
    narrative_->setOpenExternalLinks(true);
    notes_ = new QLabel(this);
    notes_->setObjectName(QStringLiteral("TeacherNotes"));
    notes_->setWordWrap(true);
    notes_->setToolTip(tr("For the teacher: hidden in presentation mode"));
    challenge_ = new QLabel(this);
    challenge_->setObjectName(QStringLiteral("LessonChallenge"));
    challenge_->setWordWrap(true);
    variant_box_ = new QSpinBox(this);
    variant_box_->setRange(0, 999);
    variant_box_->setSpecialValueText(tr("as written"));
    variant_box_->setAccessibleName(tr("Variant"));
    variant_box_->setToolTip(tr("Each student's own number gives the lesson other sizes, so that neighbours' answers "
                                "differ; 0 is the lesson as written"));
    variant_label_ = new QLabel(tr("&Variant:"), this);
    variant_label_->setBuddy(variant_box_);
    variant_values_ = new QLabel(this);
    variant_values_->setWordWrap(true);

    question_ = new QWidget(this);
    prompt_ = new QLabel(question_);
    prompt_->setWordWrap(true);
    prompt_->setFont(bold);
    guess_edit_ = new QLineEdit(question_);
    guess_edit_->setPlaceholderText(tr("Your guess: a number, or a percentage (25%)"));
    guess_edit_->setAccessibleName(tr("Your guess"));
    choices_ = new QComboBox(question_);
    choices_->setAccessibleName(tr("Your choice"));
    slider_ = new QSlider(Qt::Horizontal, question_);
    slider_->setAccessibleName(tr("Your guess"));
    slider_->setRange(0, slider_steps);
    slider_value_ = new QLabel(question_);
    slider_value_->setMinimumWidth(slider_value_->fontMetrics().horizontalAdvance(QStringLiteral("0.000 (00.0%)")));
    connect(slider_, &QSlider::valueChanged, this, [this] { slider_value_->setText(number_text(sliderGuess())); });
    commit_ = new QPushButton(tr("&Commit Guess"), question_);
    commit_->setToolTip(tr("The simulation's answer shows once you have guessed"));
    hint_button_ = new QPushButton(tr("&Hint"), question_);
    hint_ = new QLabel(question_);
    hint_->setWordWrap(true);
    hint_->hide();
    answer_ = new QLabel(question_);
    answer_->setWordWrap(true);
    answer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    explanation_ = new QTextBrowser(question_);
    explanation_->setObjectName(QStringLiteral("LessonExplanation"));
    explanation_->setMaximumHeight(explanation_->fontMetrics().lineSpacing() * 8);
    explanation_->hide();
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(commit_, 1);
    buttons->addWidget(hint_button_);
    auto* question_layout = new QVBoxLayout(question_);
    question_layout->setContentsMargins(0, 0, 0, 0);
    question_layout->addWidget(prompt_);
    question_layout->addWidget(guess_edit_);
    question_layout->addWidget(choices_);
    auto* slider_row = new QHBoxLayout;
    slider_row->addWidget(slider_, 1);
    slider_row->addWidget(slider_value_);
    question_layout->addLayout(slider_row);
    question_layout->addLayout(buttons);
    question_layout->addWidget(hint_);
    question_layout->addWidget(answer_);
    question_layout->addWidget(explanation_);

    reset_ = new QPushButton(tr("&Reset Step"), this);
    reset_->setToolTip(tr("The step's scenario as the lesson set it: your changes to it are dropped"));
    handout_ = new QToolButton(this);
    handout_->setText(tr("Hand&out"));
    handout_->setToolTip(tr("The lesson as a handout, Markdown or PDF, with each step's picture"));
    handout_->setPopupMode(QToolButton::InstantPopup);
    auto* handout_menu = new QMenu(handout_);
    handout_menu->addAction(tr("For the Students…"), this,
                            [this] { Q_EMIT handoutRequested(HandoutReader::students); });
    handout_menu->addAction(tr("For the Teacher, with the Answers…"), this,
                            [this] { Q_EMIT handoutRequested(HandoutReader::teacher); });
    handout_->setMenu(handout_menu);
    try_it_ = new QPushButton(tr("&Try It"), this);
    try_it_->setToolTip(tr("Unlock the step's scenario to change it; Reset Step puts it back as the lesson set it"));
    try_it_->setEnabled(false);
    auto* step_tools = new QHBoxLayout;
    step_tools->addWidget(handout_);
    step_tools->addStretch(1);
    step_tools->addWidget(try_it_);
    step_tools->addWidget(reset_);
    back_ = new QPushButton(tr("← &Back"), this);
    next_ = new QPushButton(tr("&Next →"), this);
    auto* steps = new QHBoxLayout;
    steps->addWidget(back_);
    steps->addWidget(counter_, 1, Qt::AlignCenter);
    steps->addWidget(next_);

    auto* variant_row = new QHBoxLayout;
    variant_row->addWidget(variant_label_);
    variant_row->addWidget(variant_box_);
    variant_row->addWidget(variant_values_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addLayout(variant_row);
    layout->addWidget(step_title_);
    layout->addWidget(narrative_, 1);
    layout->addWidget(notes_);
    layout->addWidget(question_);
    layout->addWidget(challenge_);
    layout->addLayout(step_tools);
    layout->addLayout(steps);
    applyFonts();

    connect(back_, &QPushButton::clicked, this, [this] { setStep(step_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { setStep(step_ + 1); });
    connect(reset_, &QPushButton::clicked, this, &LessonPanel::resetStep);
    connect(try_it_, &QPushButton::clicked, this, &LessonPanel::tryItRequested);
    connect(variant_box_, &QSpinBox::valueChanged, this, &LessonPanel::setVariant);
    connect(hint_button_, &QPushButton::clicked, this, [this] { hint_->setVisible(true); });
    const auto commit = [this] {
        if (slider_->isVisibleTo(this)) {
            commitGuess(QString::number(sliderGuess(), 'g', 6));
        } else {
            commitGuess(choices_->isVisibleTo(this) ? choices_->currentText() : guess_edit_->text());
        }
    };
    connect(commit_, &QPushButton::clicked, this, commit);
    connect(guess_edit_, &QLineEdit::returnPressed, this, commit);
    showStep();
}

void LessonPanel::showLesson(Lesson lesson, int step) {
    lesson_ = std::move(lesson);
    runs_.assign(lesson_->steps.size(), std::nullopt);
    step_ = -1;
    variant_ = 0;
    {
        const QSignalBlocker quiet(variant_box_);
        variant_box_->setValue(0);
    }
    showVariant();
    setStep(std::clamp(step, 0, static_cast<int>(lesson_->steps.size()) - 1));
}

void LessonPanel::setStep(int index) {
    if (!lesson_ || index < 0 || index >= static_cast<int>(lesson_->steps.size()) || index == step_) return;
    step_ = index;
    guess_.reset();
    guess_edit_->clear();
    // The step's scenario as it sets it: what its challenge's kept fields are compared with.
    const LoadResult scenario = lesson_step_scenario(*lesson_, static_cast<std::size_t>(index), variant_);
    step_yaml_ = scenario.ok() ? write_scenario_yaml(scenario.scenario->value()) : std::string();
    run_yaml_.clear();
    runEarlierSteps();
    showStep();
    Q_EMIT stepChosen(index);
}

void LessonPanel::runEarlierSteps() {
    // An earlier step this one compares with, not shown yet (the lesson opened at a later step): simulated here, as
    // the lesson sets it — a fraction of a second for the lessons' scenarios, without the timeline.
    for (const int k : earlier_steps_named(*lesson_, static_cast<std::size_t>(step_))) {
        const auto earlier = static_cast<std::size_t>(k - 1);
        if (runs_[earlier]) continue;
        const LoadResult scenario = lesson_step_scenario(*lesson_, earlier, variant_);
        if (!scenario.ok()) continue;
        if (Expected<LessonRun, Diagnostic> run = simulate_lesson_step(*lesson_, earlier, *scenario.scenario)) {
            runs_[earlier] = std::move(run).value();
        }
    }
}

void LessonPanel::resetStep() {
    if (!lesson_ || step_ < 0) return;
    run_yaml_.clear();
    Q_EMIT stepChosen(step_);
}

void LessonPanel::setVariant(int variant) {
    if (!lesson_ || variant == variant_ || variant < 0) return;
    variant_ = variant;
    if (variant_box_->value() != variant) variant_box_->setValue(variant);
    showVariant();
    // Another variant's runs answer nothing here: every step opens again.
    runs_.assign(lesson_->steps.size(), std::nullopt);
    const int step = step_;
    step_ = -1;
    setStep(step);
}

void LessonPanel::showVariant() {
    const bool varies = lesson_ && !lesson_->variants.empty();
    variant_label_->setVisible(varies);
    variant_box_->setVisible(varies);
    variant_values_->setVisible(varies);
    if (!varies) return;
    QStringList values;
    for (const AxisValue& value : lesson_variant_values(*lesson_, variant_)) {
        values << QStringLiteral("%1 %2").arg(QString::fromStdString(value.path), QString::fromStdString(value.value));
    }
    variant_values_->setText(values.join(QStringLiteral(", ")));
}

void LessonPanel::setLocked(bool locked) {
    try_it_->setEnabled(locked);
    try_it_->setText(locked ? tr("&Try It") : tr("Trying"));
}

void LessonPanel::setRun(const LessonRun* run, const std::string& scenario_yaml) {
    if (!lesson_ || step_ < 0) return;
    runs_[static_cast<std::size_t>(step_)] = run != nullptr ? std::optional<LessonRun>(*run) : std::nullopt;
    run_yaml_ = scenario_yaml;
    // The run's numbers in the narrative follow it (set again only where it has some: setting keeps no scroll).
    if (!lesson_text_expressions(lesson_->steps[static_cast<std::size_t>(step_)].text).empty()) showNarrative();
    updateAnswer();
    updateChallenge();
}

QString LessonPanel::challengeText() const { return challenge_->isHidden() ? QString() : challenge_->text(); }

void LessonPanel::updateChallenge() {
    const LessonStep* step = lesson_ && step_ >= 0 ? &lesson_->steps[static_cast<std::size_t>(step_)] : nullptr;
    challenge_->setVisible(step != nullptr && step->challenge.has_value());
    if (step == nullptr || !step->challenge) return;
    const QString goal = tr("<b>Challenge:</b> %1").arg(QString::fromStdString(step->challenge->goal).toHtmlEscaped());
    const Expected<ReportExpression, Diagnostic> expression = lesson_expression(step->challenge->expression);
    // Its verdict says the run's number: not before the question's guess.
    if (!expression || !runs_[static_cast<std::size_t>(step_)] || run_yaml_.empty() || awaitingGuess()) {
        challenge_->setText(goal);
        return;
    }
    const ChallengeVerdict verdict = judge_challenge(*step->challenge, expression.value(), runs_,
                                                     static_cast<std::size_t>(step_), step_yaml_, run_yaml_);
    challenge_->setText(tr("%1<br>%2 %3")
                            .arg(goal, verdict.met ? tr("✔") : tr("…"),
                                 QString::fromStdString(verdict.said).toHtmlEscaped()));
}

bool LessonPanel::commitGuess(const QString& guess) {
    const std::optional<double> value = guess_value(guess);
    if (!value) {
        answer_->setText(tr("“%1” is not a number: write 0.25 or 25%").arg(guess));
        return false;
    }
    guess_ = value;
    updateAnswer();
    updateChallenge();
    sayAwaiting();
    return true;
}

QString LessonPanel::answerText() const { return guess_ ? answer_->text() : QString(); }

QString LessonPanel::explanationMarkdown() const {
    return explanation_->isHidden() ? QString() : explanation_->toMarkdown();
}

QString LessonPanel::counterText() const { return counter_->text(); }

QString LessonPanel::narrativeMarkdown() const { return narrative_->toMarkdown(); }

void LessonPanel::showStep() {
    const bool open = lesson_ && step_ >= 0;
    title_->setText(open ? QString::fromStdString(lesson_->title) : tr("No lesson open: Help → Lessons"));
    counter_->setText(open ? tr("Step %1 of %2").arg(step_ + 1).arg(lesson_->steps.size()) : QString());
    back_->setEnabled(open && step_ > 0);
    reset_->setEnabled(open);
    next_->setEnabled(open && step_ + 1 < static_cast<int>(lesson_->steps.size()));
    if (!open) {
        step_title_->clear();
        narrative_->clear();
        notes_->hide();
        challenge_->hide();
        question_->hide();
        return;
    }
    const LessonStep& step = lesson_->steps[static_cast<std::size_t>(step_)];
    step_title_->setText(QString::fromStdString(step.title));
    showNarrative();
    notes_->setText(step.notes.empty() ? QString() : tr("<i>Teacher's notes:</i> %1").arg(QString::fromStdString(step.notes).toHtmlEscaped()));
    notes_->setVisible(!presenting_ && !step.notes.empty());
    question_->setVisible(step.question.has_value());
    if (step.question) {
        prompt_->setText(QString::fromStdString(step.question->prompt));
        hint_->setText(tr("Hint: %1").arg(QString::fromStdString(step.question->hint)));
        hint_->hide();
        hint_button_->setVisible(!step.question->hint.empty());
        choices_->clear();
        for (const std::string& choice : step.question->choices) choices_->addItem(QString::fromStdString(choice));
        choices_->setVisible(!step.question->choices.empty());
        const bool sliding = step.question->range.has_value();
        slider_->setVisible(sliding);
        slider_value_->setVisible(sliding);
        if (sliding) {
            slider_->setValue(slider_steps / 2);
            slider_value_->setText(number_text(sliderGuess()));
        }
        guess_edit_->setVisible(step.question->choices.empty() && !sliding);
    }
    updateAnswer();
    sayAwaiting();
}

QString LessonPanel::filled(const std::string& text) const {
    return QString::fromStdString(filled_lesson_text(text, runs_, static_cast<std::size_t>(step_)));
}

void LessonPanel::showNarrative() {
    const LessonStep& step = lesson_->steps[static_cast<std::size_t>(step_)];
    narrative_->setMarkdown(filled(step.text));
}

double LessonPanel::sliderGuess() const {
    if (!lesson_ || step_ < 0) return 0.0;
    const auto& range = lesson_->steps[static_cast<std::size_t>(step_)].question->range;
    if (!range) return 0.0;
    return range->first + (range->second - range->first) * slider_->value() / slider_steps;
}

void LessonPanel::setPresenting(bool on) {
    presenting_ = on;
    applyFonts();
    showStep();
}

void LessonPanel::applyFonts() {
    // Sizes relative to the panel's font, which presentation mode enlarges: the title 1.3 times, the step counter
    // 1.6 times while presenting, to be read from the back of the room.
    QFont title = font();
    title.setPointSizeF(title.pointSizeF() * 1.3);
    title.setBold(true);
    title_->setFont(title);
    QFont counter = font();
    if (presenting_) {
        counter.setPointSizeF(counter.pointSizeF() * 1.6);
        counter.setBold(true);
    }
    counter_->setFont(counter);
}

void LessonPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) applyFonts();
}

QString LessonPanel::notesText() const { return notes_->isHidden() ? QString() : notes_->text(); }

bool LessonPanel::awaitingGuess() const {
    return lesson_ && step_ >= 0 && lesson_->steps[static_cast<std::size_t>(step_)].question.has_value() && !guess_;
}

void LessonPanel::sayAwaiting() {
    const bool awaiting = awaitingGuess();
    if (awaiting == awaiting_) return;
    awaiting_ = awaiting;
    Q_EMIT awaitingGuessChanged(awaiting);
}

void LessonPanel::updateAnswer() {
    if (!lesson_ || step_ < 0) return;
    const LessonStep& step = lesson_->steps[static_cast<std::size_t>(step_)];
    // What the numbers mean, once the class has committed to its own.
    const bool explained = step.question && guess_ && !step.question->explanation.empty();
    if (explained) explanation_->setMarkdown(filled(step.question->explanation));
    explanation_->setVisible(explained);
    if (!step.question || !guess_) {
        answer_->setText(step.question ? tr("Guess first: the simulation's answer shows once you commit.") : QString());
        return;
    }
    const Expected<ReportExpression, Diagnostic> expression = lesson_expression(step.question->answer);
    if (!expression) {
        answer_->setText(QString::fromStdString(expression.error().to_string()));
        return;
    }
    const Expected<double> answer = evaluate_in_lesson(expression.value(), runs_, static_cast<std::size_t>(step_));
    if (!answer) {
        answer_->setText(tr("Your guess: %1. The simulation's answer comes with its run.").arg(number_text(*guess_)));
        return;
    }
    const bool right = within_tolerance(*guess_, answer.value(), step.question->tolerance);
    if (right) {
        answer_->setText(tr("Right. The simulation says %1; you guessed %2.")
                             .arg(number_text(answer.value()), number_text(*guess_)));
        return;
    }
    const double off = std::abs(*guess_ - answer.value()) / std::max(std::abs(answer.value()), 1e-300);
    answer_->setText(tr("The simulation says %1; you guessed %2, off by %3%.")
                         .arg(number_text(answer.value()), number_text(*guess_), QString::number(100.0 * off, 'g', 3)));
}

}  // namespace parasight::gui
