#include "plots/live_plots_page.h"

#include "plots/live_plots.h"
#include "plots/per_class_results.h"
#include "plots/prediction_previews.h"

#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace kiln::gui {

LivePlotsPage::LivePlotsPage(QWidget* parent)
    : QWidget(parent), plots_(new LivePlots(this)), perClass_(new PerClassResults(this)),
      previews_(new PredictionPreviewsView(this)), advice_(new QLabel(this)),
      adviceToggle_(new QToolButton(this)),
      optimizeAdvice_(new QPushButton(tr("Optimize Dataset..."), this)) {
    setObjectName(QStringLiteral("livePlotsPage"));
    advice_->setObjectName(QStringLiteral("adviceLabel"));
    advice_->setWordWrap(true);
    advice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    optimizeAdvice_->setObjectName(QStringLiteral("optimizeAdviceButton"));
    optimizeAdvice_->hide();
    connect(optimizeAdvice_, &QPushButton::clicked, this, &LivePlotsPage::optimizeRequested);
    auto* adviceBox = new QWidget(this);
    auto* adviceLayout = new QVBoxLayout(adviceBox);
    adviceLayout->setContentsMargins(0, 0, 0, 0);
    adviceLayout->addWidget(advice_);
    adviceLayout->addWidget(optimizeAdvice_, 0, Qt::AlignLeft);
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
    auto* layout = new QVBoxLayout(this);
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
}

void LivePlotsPage::addValidation(const train::ValidationMetrics& metrics) {
    plots_->addValidation(metrics);
    perClass_->setValidation(metrics);
    if (!metrics.previews.images.empty()) {
        previews_->setPreviews(metrics.previews, metrics.step);
    }
}

void LivePlotsPage::showSummary(const train::RunSummary& summary) {
    optimizeAdvice_->setVisible(summary.advice &&
                                summary.advice->bottleneck == system::Bottleneck::DataloaderCpu);
    QString text = summary.status == train::RunSummary::Status::Finished
                       ? tr("Finished after %n step(s).", nullptr, static_cast<int>(summary.steps))
                       : tr("Stopped after %n step(s); it can be resumed.", nullptr,
                            static_cast<int>(summary.steps));
    if (summary.best_value) {
        text += QLatin1Char('\n') + tr("Best %1: %2 at step %3 (checkpoints/best.ckpt).")
                                        .arg(QString::fromStdString(summary.watch_metric))
                                        .arg(*summary.best_value, 0, 'f', 4)
                                        .arg(summary.best_step);
    }
    if (summary.advice) {
        text += QLatin1Char('\n') + QString::fromStdString(summary.advice->diagnosis);
        for (const std::string& advice : summary.advice->advice) {
            text += QStringLiteral("\n  - ") + QString::fromStdString(advice);
        }
    }
    advice_->setText(text);
    adviceToggle_->setVisible(!text.isEmpty());
}

} // namespace kiln::gui
