#include "plots/plot_theme.h"

#include "plots/qcustomplot.h"

#include <QEvent>
#include <QObject>
#include <QPalette>

namespace kiln::gui {
namespace {

// Re-themes its plot when the application's or the plot's palette changes.
class PaletteFollower : public QObject {
public:
    explicit PaletteFollower(QCustomPlot* plot) : QObject(plot), plot_(plot) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == plot_ && (event->type() == QEvent::PaletteChange ||
                                 event->type() == QEvent::ApplicationPaletteChange)) {
            applyPalette(plot_, plot_->palette());
            plot_->replot(QCustomPlot::rpQueuedReplot);
        }
        return false;
    }

private:
    QCustomPlot* plot_;
};

} // namespace

void applyPalette(QCustomPlot* plot, const QPalette& palette) {
    const QColor background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.25);
    plot->setBackground(background);
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(background);
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
            axis->grid()->setZeroLinePen(QPen(grid));
        }
    }
    plot->legend->setTextColor(text);
    if (plot->legend->brush().style() != Qt::NoBrush) {
        plot->legend->setBrush(background);
        plot->legend->setBorderPen(QPen(grid));
    }
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* title = qobject_cast<QCPTextElement*>(element)) {
            title->setTextColor(text);
        }
    }
}

void followPalette(QCustomPlot* plot) {
    applyPalette(plot, plot->palette());
    plot->installEventFilter(new PaletteFollower(plot));
}

} // namespace kiln::gui
