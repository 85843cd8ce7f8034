#include "timeline/playhead_bar.h"

#include "style/quantity_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace parasight::gui {
namespace {

constexpr double speeds[] = {0.25, 0.5, 1.0, 2.0, 4.0};

QString text_of(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

}  // namespace

PlayheadBar::PlayheadBar(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("PlayheadBar"));
    shown_ = new QCheckBox(tr("&Playhead"), this);
    shown_->setToolTip(tr("Step through the schedule: where each computation starts or ends"));
    back_ = new QPushButton(tr("◀"), this);
    back_->setToolTip(tr("The previous moment a computation starts or ends (← in the chart)"));
    forward_ = new QPushButton(tr("▶"), this);
    forward_->setToolTip(tr("The next moment a computation starts or ends (→ in the chart)"));
    play_ = new QPushButton(tr("Play"), this);
    play_->setCheckable(true);
    speed_ = new QComboBox(this);
    speed_->setAccessibleName(tr("Speed"));
    for (const double speed : speeds) speed_->addItem(QStringLiteral("%1×").arg(speed));
    speed_->setCurrentIndex(2);
    state_ = new QLabel(this);
    state_->setWordWrap(true);
    state_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(shown_);
    controls->addWidget(back_);
    controls->addWidget(forward_);
    controls->addWidget(play_);
    controls->addWidget(speed_);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 2);
    layout->setSpacing(2);
    layout->addLayout(controls);
    layout->addWidget(state_);
    timer_.setInterval(stop_interval_ms);
    connect(shown_, &QCheckBox::toggled, this, &PlayheadBar::setShown);
    connect(back_, &QPushButton::clicked, this, [this] { step(-1); });
    connect(forward_, &QPushButton::clicked, this, [this] { step(1); });
    connect(play_, &QPushButton::toggled, this, &PlayheadBar::setPlaying);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setSpeed(speeds[std::clamp(index, 0, 4)]); });
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (!step(1)) setPlaying(false);
    });
    setTimeline(nullptr);
}

void PlayheadBar::setTimeline(std::shared_ptr<const Timeline> timeline) {
    timeline_ = std::move(timeline);
    steps_.reset();
    setPlaying(false);
    for (QWidget* control : std::initializer_list<QWidget*>{shown_, back_, forward_, play_, speed_}) {
        control->setEnabled(timeline_ != nullptr);
    }
    if (!timeline_) {
        shown_->setChecked(false);
        moveTo(std::nullopt);
    } else if (time_s_) {
        // A new run of the scenario: the playhead keeps its time, inside the new iteration.
        steps_ = std::make_unique<ScheduleSteps>(*timeline_);
        moveTo(std::min(*time_s_, timeline_->iteration_time_s()));
    }
}

void PlayheadBar::setShown(bool shown) {
    if (shown_->isChecked() != shown) shown_->setChecked(shown);
    if (!shown || !timeline_) {
        setPlaying(false);
        moveTo(std::nullopt);
        return;
    }
    if (!steps_) steps_ = std::make_unique<ScheduleSteps>(*timeline_);
    if (!time_s_) moveTo(0.0);
}

bool PlayheadBar::step(int direction) {
    if (!time_s_ || !steps_) return false;
    const std::optional<double> next = direction > 0 ? steps_->after(*time_s_) : steps_->before(*time_s_);
    if (!next) return false;
    moveTo(next);
    return true;
}

void PlayheadBar::setPlaying(bool playing) {
    if (playing && !time_s_) setShown(true);
    if (playing && time_s_) {
        timer_.start();
    } else {
        timer_.stop();
    }
    if (play_->isChecked() != timer_.isActive()) play_->setChecked(timer_.isActive());
    play_->setText(timer_.isActive() ? tr("Pause") : tr("Play"));
}

void PlayheadBar::setSpeed(double speed) {
    timer_.setInterval(static_cast<int>(std::lround(stop_interval_ms / std::clamp(speed, 0.25, 4.0))));
}

void PlayheadBar::moveTo(std::optional<double> time_s) {
    time_s_ = time_s;
    state_->setText(stateText());
    state_->setVisible(time_s_.has_value());
    Q_EMIT moved(time_s_);
}

QString PlayheadBar::stateText() const {
    if (!time_s_ || !timeline_) return {};
    QStringList lines;
    for (const DeviceAtTime& device : devices_at(*timeline_, *time_s_)) {
        QString doing = tr("waits");
        if (device.computing) {
            doing = text_of(device.computing->operation);
            if (device.computing->layer >= 0) doing += tr(" layer %1").arg(device.computing->layer);
            if (device.computing->micro_batch >= 0) doing += tr(", micro-batch %1").arg(device.computing->micro_batch);
        }
        QString line = tr("stage %1 · NPU %2: %3").arg(device.stage).arg(device.npu).arg(doing);
        if (device.memory_bytes) line += tr(" · %1").arg(bytes_text(*device.memory_bytes));
        lines << line;
    }
    return tr("At %1:\n%2").arg(time_text(*time_s_), lines.join(u'\n'));
}

}  // namespace parasight::gui
