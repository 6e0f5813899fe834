#include "embeddings/embeddings_view.h"

#include "embed/explorer.h"
#include "embed/writers.h"
#include "plots/plot_theme.h"
#include "plots/qcustomplot.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMap>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

namespace kiln::gui {
namespace {

const QList<QColor> kColours = {QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                                QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                                QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                                QColor(23, 190, 207)};
constexpr int kNeighbours = 10;

QString top_folder(const QString& name) {
    const int slash = name.indexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : name.left(slash);
}

} // namespace

EmbeddingsView::EmbeddingsView(QWidget* parent)
    : QWidget(parent), job_(this, QStringLiteral("embeddings view")) {
    setObjectName(QStringLiteral("embeddingsView"));
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("embeddingsPlot"));
    plot_->setMouseTracking(true);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    followPalette(plot_);
    plot_->xAxis->setLabel(tr("first principal component"));
    plot_->yAxis->setLabel(tr("second principal component"));
    connect(plot_, &QCustomPlot::mouseMove, this, &EmbeddingsView::mouseMoved);
    connect(plot_, &QCustomPlot::mousePress, this, &EmbeddingsView::mousePressed);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, &EmbeddingsView::resetView);
    auto* reset = new QPushButton(tr("Reset View"), this);
    reset->setObjectName(QStringLiteral("resetEmbeddingsViewButton"));
    reset->setToolTip(tr("Show every point again after dragging or zooming (or double-click "
                         "the plot)"));
    connect(reset, &QPushButton::clicked, this, &EmbeddingsView::resetView);
    neighbours_ = new QListWidget(this);
    neighbours_->setObjectName(QStringLiteral("neighbourList"));
    neighbours_->setMaximumWidth(320);
    status_ = new QLabel(tr("Export embeddings (File menu) or open an embeddings file to see "
                            "them here."),
                         this);
    status_->setObjectName(QStringLiteral("embeddingsStatus"));
    status_->setWordWrap(true);
    auto* side = new QVBoxLayout;
    side->addWidget(new QLabel(tr("<b>Nearest neighbours</b> (click a point)"), this));
    side->addWidget(neighbours_, 1);
    side->addWidget(reset, 0, Qt::AlignRight);
    auto* columns = new QHBoxLayout;
    columns->addWidget(plot_, 1);
    columns->addLayout(side);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addLayout(columns, 1);
}

EmbeddingsView::~EmbeddingsView() {
    job_.stopAndWait();
}

void EmbeddingsView::load(const QString& file, const QStringList& roots) {
    if (job_.isRunning()) {
        return; // one at a time
    }
    roots_ = roots;
    status_->setText(tr("Loading and projecting %1...").arg(QDir::toNativeSeparators(file)));
    job_.start([this, file](const StopToken&) {
        try {
            const embed::EmbeddingFile read = embed::read_embeddings(file.toStdString());
            const at::Tensor projected = embed::pca_2d(read.embeddings).contiguous();
            QStringList names;
            for (const std::string& name : read.filenames) {
                names << QString::fromStdString(name);
            }
            QVector<double> x(names.size()), y(names.size());
            const float* values = projected.data_ptr<float>();
            for (int i = 0; i < names.size(); ++i) {
                x[i] = values[2 * i];
                y[i] = values[2 * i + 1];
            }
            QMetaObject::invokeMethod(this,
                                      [this, file, names, x, y, embeddings = read.embeddings] {
                                          showLoaded(file, names, x, y, embeddings);
                                      });
        } catch (const std::exception& error) {
            const QString message = QString::fromStdString(error.what());
            QMetaObject::invokeMethod(this, [this, message] {
                status_->setText(message);
                Q_EMIT failed(message);
            });
        }
    });
}

void EmbeddingsView::showLoaded(const QString& file, const QStringList& names,
                                const QVector<double>& x, const QVector<double>& y,
                                const at::Tensor& embeddings) {
    names_ = names;
    root_.clear();
    for (const QString& root : roots_) {
        if (!names_.isEmpty() && QFileInfo::exists(QDir(root).filePath(names_.first()))) {
            root_ = root;
            break;
        }
    }
    x_ = x;
    y_ = y;
    embeddings_ = embeddings;
    plot_->clearGraphs();
    neighbours_->clear();
    QMap<QString, QPair<QVector<double>, QVector<double>>> groups;
    for (int i = 0; i < names_.size(); ++i) {
        auto& group = groups[top_folder(names_[i])];
        group.first << x_[i];
        group.second << y_[i];
    }
    int colour = 0;
    for (auto group = groups.cbegin(); group != groups.cend(); ++group) {
        QCPGraph* graph = plot_->addGraph();
        graph->setName(group.key().isEmpty() ? tr("(top folder)") : group.key());
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, kColours[colour++ % kColours.size()], 5));
        graph->setData(group->first, group->second);
    }
    marked_ = plot_->addGraph();
    marked_->setName(tr("neighbours"));
    marked_->setLineStyle(QCPGraph::lsNone);
    marked_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::NoBrush, 11));
    resetView();
    status_->setText(tr("%n embedding(s) in %1 group(s) by top-level folder.", nullptr,
                        static_cast<int>(names_.size()))
                         .arg(groups.size()));
    Q_EMIT loaded(static_cast<int>(names_.size()), file);
}

int EmbeddingsView::groupCount() const {
    return plot_->graphCount() > 0 ? plot_->graphCount() - 1 : 0; // less the neighbour marks
}

int EmbeddingsView::nearestPoint(const QPointF& pixel) const {
    int best = -1;
    double best_distance = 12.0 * 12.0; // pixels: only points under the cursor
    for (int i = 0; i < x_.size(); ++i) {
        const double dx = plot_->xAxis->coordToPixel(x_[i]) - pixel.x();
        const double dy = plot_->yAxis->coordToPixel(y_[i]) - pixel.y();
        if (dx * dx + dy * dy < best_distance) {
            best_distance = dx * dx + dy * dy;
            best = i;
        }
    }
    return best;
}

QString EmbeddingsView::hoverText(int row) const {
    if (row < 0 || row >= names_.size()) {
        return {};
    }
    const QString path = QDir(root_).filePath(names_[row]);
    return QStringLiteral("<img src=\"%1\" width=\"96\"><br>%2")
        .arg(path.toHtmlEscaped(), names_[row].toHtmlEscaped());
}

void EmbeddingsView::mouseMoved(QMouseEvent* event) {
    const int row = nearestPoint(event->position());
    if (row >= 0) {
        QToolTip::showText(event->globalPosition().toPoint(), hoverText(row), plot_);
    } else {
        QToolTip::hideText();
    }
}

void EmbeddingsView::mousePressed(QMouseEvent* event) {
    const int row = nearestPoint(event->position());
    if (row >= 0) {
        selectPoint(row);
    }
}

void EmbeddingsView::selectPoint(int row) {
    if (row < 0 || row >= names_.size()) {
        return;
    }
    const std::vector<embed::Neighbour> found =
        embed::nearest_neighbours(embeddings_, row, kNeighbours);
    neighbours_->clear();
    neighbours_->addItem(tr("%1 (selected)").arg(names_[row]));
    QVector<double> x{x_[row]}, y{y_[row]};
    for (const embed::Neighbour& neighbour : found) {
        const int other = static_cast<int>(neighbour.row);
        neighbours_->addItem(
            QStringLiteral("%1  %2").arg(neighbour.similarity, 0, 'f', 3).arg(names_[other]));
        x << x_[other];
        y << y_[other];
    }
    marked_->setData(x, y);
    plot_->replot();
}

void EmbeddingsView::resetView() {
    plot_->rescaleAxes();
    // A margin, so that points on the edge are whole.
    plot_->xAxis->scaleRange(1.1, plot_->xAxis->range().center());
    plot_->yAxis->scaleRange(1.1, plot_->yAxis->range().center());
    plot_->replot();
}

QStringList EmbeddingsView::neighbourNames() const {
    QStringList names;
    for (int i = 1; i < neighbours_->count(); ++i) {
        names << neighbours_->item(i)->text().section(QStringLiteral("  "), 1);
    }
    return names;
}

} // namespace kiln::gui
