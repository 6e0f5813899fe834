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

void legendAboveData(QCustomPlot* plot) {
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    QCPLayoutGrid* layout = plot->plotLayout();
    int above = 0; // the axes' row: after the title, if one was added
    while (above < layout->rowCount() && layout->element(above, 0) != plot->axisRect()) {
        ++above;
    }
    auto* row = new QCPLayoutGrid;
    layout->insertRow(above);
    layout->addElement(above, 0, row);
    row->addElement(0, 0, plot->legend);
    // A legend without entries is as wide as its margins allow, and a grid column no wider
    // than its narrowest element: this empty element keeps the axes full width then (Run
    // History's, with no run selected, were squeezed to 50 px).
    row->addElement(0, 1, new QCPLayoutElement(plot));
    row->setColumnStretchFactor(1, 0.001);
    row->setMargins(QMargins(0, 0, 0, 0));
    layout->setRowStretchFactor(above, 0.001);
}

} // namespace kiln::gui
