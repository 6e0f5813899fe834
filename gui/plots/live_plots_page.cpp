#include "plots/live_plots_page.h"

#include "plots/live_plots.h"
#include "plots/metric_titles.h"
#include "plots/per_class_results.h"
#include "plots/prediction_previews.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace kiln::gui {

LivePlotsPage::LivePlotsPage(QWidget* parent)
    : QWidget(parent), plots_(new LivePlots(this)), perClass_(new PerClassResults(this)),
      previews_(new PredictionPreviewsView(this)), advice_(new QLabel(this)),
      adviceToggle_(new QToolButton(this)),
      optimizeAdvice_(new QPushButton(tr("Optimize Dataset..."), this)),
      resume_(new QPushButton(tr("Resume"), this)), changes_(new QWidget(this)),
      warningsBox_(new QFrame(this)), warnings_(new QLabel(this)) {
    setObjectName(QStringLiteral("livePlotsPage"));
    advice_->setObjectName(QStringLiteral("adviceLabel"));
    advice_->setTextFormat(Qt::PlainText); // it quotes paths and the engine's messages
    advice_->setWordWrap(true);
    advice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    optimizeAdvice_->setObjectName(QStringLiteral("optimizeAdviceButton"));
    optimizeAdvice_->hide();
    connect(optimizeAdvice_, &QPushButton::clicked, this, &LivePlotsPage::optimizeRequested);
    resume_->setObjectName(QStringLiteral("resumeStoppedRunButton"));
    resume_->setToolTip(tr("Continue the run from its last checkpoint (Run ▸ Resume)"));
    resume_->hide();
    connect(resume_, &QPushButton::clicked, this, &LivePlotsPage::resumeRequested);
    auto* adviceBox = new QWidget(this);
    auto* adviceLayout = new QVBoxLayout(adviceBox);
    adviceLayout->setContentsMargins(0, 0, 0, 0);
    adviceLayout->addWidget(advice_);
    adviceLayout->addWidget(resume_, 0, Qt::AlignLeft);
    adviceLayout->addWidget(optimizeAdvice_, 0, Qt::AlignLeft);
    changes_->setObjectName(QStringLiteral("adviceChanges"));
    auto* changesLayout = new QHBoxLayout(changes_);
    changesLayout->setContentsMargins(0, 0, 0, 0);
    changesLayout->addStretch();
    adviceLayout->addWidget(changes_);
    adviceToggle_->setObjectName(QStringLiteral("adviceToggle"));
    adviceToggle_->setText(tr("Where the time went"));
    adviceToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    adviceToggle_->setArrowType(Qt::DownArrow);
    adviceToggle_->setCheckable(true);
    adviceToggle_->setChecked(true);
    adviceToggle_->setAutoRaise(true);
    adviceToggle_->hide(); // until a run ends with advice
    connect(adviceToggle_, &QToolButton::toggled, this, [this, adviceBox](bool open) {
        adviceToggle_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        adviceBox->setVisible(open);
    });
    warningsBox_->setObjectName(QStringLiteral("runWarnings"));
    warningsBox_->setFrameShape(QFrame::StyledPanel);
    auto* icon = new QLabel(warningsBox_);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(24, 24));
    warnings_->setObjectName(QStringLiteral("runWarningsText"));
    warnings_->setTextFormat(Qt::PlainText);
    warnings_->setWordWrap(true);
    warnings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* warningsLayout = new QHBoxLayout(warningsBox_);
    warningsLayout->addWidget(icon, 0, Qt::AlignTop);
    warningsLayout->addWidget(warnings_, 1);
    warningsBox_->hide(); // until the engine warns
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(warningsBox_);
    layout->addWidget(plots_, 1);
    layout->addWidget(perClass_);
    layout->addWidget(previews_);
    layout->addWidget(adviceToggle_, 0, Qt::AlignLeft);
    layout->addWidget(adviceBox);
}

void LivePlotsPage::clear() {
    plots_->clear();
    perClass_->clear();
    previews_->clear();
    advice_->clear();
    adviceToggle_->hide();
    optimizeAdvice_->hide();
    resume_->hide();
    clearChanges();
    shownWarnings_.clear();
    otherWarnings_ = 0;
    warnings_->clear();
    warningsBox_->hide();
}

void LivePlotsPage::clearChanges() {
    for (QPushButton* button : changes_->findChildren<QPushButton*>()) {
        delete button;
    }
    changes_->hide();
}

void LivePlotsPage::addValidation(const train::ValidationMetrics& metrics) {
    plots_->addValidation(metrics);
    perClass_->setValidation(metrics);
    if (!metrics.previews.images.empty()) {
        previews_->setPreviews(metrics.previews, metrics.step);
    }
}

namespace {

// The advisor's sentence with the settings it names called as the form calls them:
// "use more loader workers (num_workers)" -> "... (Loader workers)", precision=bf16-mixed ->
// "Precision bf16-mixed"; its command line for re-encoding becomes the button below. Plain
// words (a setting without "_", ".", or "=value") stay as they are.
QString inFieldNames(const QString& sentence,
                     const std::function<QString(const QString&)>& fieldName) {
    static const QRegularExpression command(QStringLiteral("kiln optimize-dataset[^;]*"));
    static const QRegularExpression setting(
        QStringLiteral("\\b([a-z][a-z0-9]*(?:[_.][a-z0-9]+)*)(=[^\\s,;:)]+)?"));
    QString text = sentence;
    text.replace(command, LivePlotsPage::tr("Optimize Dataset (the button below)"));
    QString named;
    qsizetype at = 0;
    for (QRegularExpressionMatchIterator it = setting.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const QString key = match.captured(1);
        const bool setting_like = key.contains(QLatin1Char('_')) ||
                                  key.contains(QLatin1Char('.')) || match.hasCaptured(2);
        const QString name = setting_like ? fieldName(key) : QString();
        if (name.isEmpty()) {
            continue;
        }
        named += text.mid(at, match.capturedStart() - at) + name;
        if (match.hasCaptured(2)) {
            named += QLatin1Char(' ') + match.captured(2).mid(1);
        }
        at = match.capturedEnd();
    }
    return named + text.mid(at);
}

} // namespace

void LivePlotsPage::showSummary(const train::RunSummary& summary,
                                const std::function<QString(const QString&)>& fieldName) {
    optimizeAdvice_->setVisible(summary.advice &&
                                summary.advice->bottleneck == system::Bottleneck::DataloaderCpu);
    resume_->setVisible(summary.status == train::RunSummary::Status::Cancelled);
    QString text = summary.status == train::RunSummary::Status::Finished
                       ? tr("Finished after %Ln step(s).", nullptr, static_cast<int>(summary.steps))
                       : tr("Stopped after %Ln step(s); it can be resumed.", nullptr,
                            static_cast<int>(summary.steps));
    if (summary.best_value) {
        text +=
            QLatin1Char('\n') + tr("Best %1: %2 at step %3 (checkpoints/best.ckpt).")
                                    .arg(metricTitle(QString::fromStdString(summary.watch_metric)))
                                    .arg(*summary.best_value, 0, 'f', 4)
                                    .arg(summary.best_step);
    }
    clearChanges();
    if (summary.advice) {
        text += QLatin1Char('\n') + QString::fromStdString(summary.advice->diagnosis);
        for (const std::string& advice : summary.advice->advice) {
            text +=
                QStringLiteral("\n  - ") + inFieldNames(QString::fromStdString(advice), fieldName);
        }
        auto* layout = static_cast<QHBoxLayout*>(changes_->layout());
        for (const system::SettingChange& change : summary.advice->changes) {
            const QString key = QString::fromStdString(change.key);
            const QString value = QString::fromStdString(change.value);
            const QString name = fieldName(key);
            if (name.isEmpty()) {
                continue; // not a setting of the form: the sentence says what to do
            }
            auto* button = new QPushButton(tr("Set %1 to %2").arg(name, value), changes_);
            button->setObjectName(QStringLiteral("applyAdvice_") + key);
            button->setToolTip(tr("Changes the run configuration for the next run"));
            connect(button, &QPushButton::clicked, this,
                    [this, key, value] { Q_EMIT applyRequested(key, value); });
            layout->insertWidget(layout->count() - 1, button);
            changes_->show();
        }
    }
    advice_->setText(text);
    adviceToggle_->setVisible(!text.isEmpty());
}

void LivePlotsPage::addWarning(const QString& warning,
                               const std::function<QString(const QString&)>& fieldName) {
    const QString text = inFieldNames(warning, fieldName);
    const auto shown =
        std::find_if(shownWarnings_.begin(), shownWarnings_.end(),
                     [&text](const ShownWarning& warning) { return warning.text == text; });
    if (shown != shownWarnings_.end()) {
        ++shown->times;
    } else if (shownWarnings_.size() < kShownWarnings) {
        shownWarnings_.append({text});
    } else {
        ++otherWarnings_;
    }
    showWarnings();
}

void LivePlotsPage::showWarnings() {
    QString text = tr("This run warned:");
    for (const ShownWarning& warning : shownWarnings_) {
        text += QStringLiteral("\n  - ") + warning.text;
        if (warning.times > 1) {
            text += QLatin1Char(' ') + tr("(%Ln times)", nullptr, warning.times);
        }
    }
    if (otherWarnings_ > 0) {
        text += QStringLiteral("\n  - ") +
                tr("and %Ln more (see train.log in the run's folder)", nullptr, otherWarnings_);
    }
    warnings_->setText(text);
    warningsBox_->show();
}

} // namespace kiln::gui
