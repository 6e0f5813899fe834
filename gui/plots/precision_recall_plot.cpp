#include "plots/precision_recall_plot.h"

#include "common/label_overlay.h"
#include "eval/coco/coco_eval.h"
#include "plots/plot_theme.h"

#include <QLocale>
#include <algorithm>

namespace kiln::gui {

PrecisionRecallPlot::PrecisionRecallPlot(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("precisionRecallPlot"));
    xAxis->setLabel(tr("recall"));
    yAxis->setLabel(tr("precision (IoU 0.5)"));
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1.02);
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    // Curves fall towards the lower right: the legend sits where they rarely are.
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    followPalette(this);
}

void PrecisionRecallPlot::setCurves(const train::PrecisionRecallCurves& curves,
                                    const QStringList& classes) {
    curves_ = curves;
    classes_ = classes;
    draw();
}

void PrecisionRecallPlot::showOnly(const QStringList& classes) {
    shown_ = classes;
    draw();
}

void PrecisionRecallPlot::draw() {
    clearGraphs();
    for (std::size_t k = 0; k < curves_.classes.size() && k < curves_.precision.size(); ++k) {
        const QString name = QString::fromStdString(curves_.classes[k]);
        const std::vector<double>& precision = curves_.precision[k];
        const bool labelled = std::all_of(precision.begin(), precision.end(),
                                          [](double value) { return value >= 0; });
        if (!labelled || precision.empty() || (!shown_.isEmpty() && !shown_.contains(name))) {
            continue;
        }
        QVector<double> recalls, precisions;
        double sum = 0;
        for (std::size_t r = 0; r < precision.size(); ++r) {
            sum += precision[r];
            if (precision[r] > 0) { // 0: a recall the detector never reaches
                recalls << coco::recall_thresholds()[r];
                precisions << precision[r];
            }
        }
        QCPGraph* graph = addGraph();
        graph->setPen(QPen(classColour(std::max<qsizetype>(0, classes_.indexOf(name))), 1.5));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setName(tr("%1, AP50 %2")
                           .arg(name, QLocale().toString(sum / double(precision.size()), 'f', 2)));
        graph->setData(recalls, precisions, true);
    }
    replot();
}

} // namespace kiln::gui
