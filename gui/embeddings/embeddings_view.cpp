#include "embeddings/embeddings_view.h"

#include "common/image_conversion.h"
#include "embed/embedding_map.h"
#include "embed/explorer.h"
#include "embed/select_job.h"
#include "embed/selection.h"
#include "embed/writers.h"
#include "embeddings/labelling_pick_dialog.h"
#include "plots/plot_theme.h"
#include "plots/qcustomplot.h"

#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QMap>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTextDocument>
#include <QThreadPool>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <tuple>

namespace kiln::gui {
namespace {

// A point of the map: a 5 px disc, drawn once into a pixmap that each point copies (far faster
// than painting 100,000 ellipses while panning).
QCPScatterStyle dotStyle(const QColor& colour) {
    QPixmap dot(5, 5);
    dot.fill(Qt::transparent);
    QPainter painter(&dot);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawEllipse(QRectF(0, 0, 5, 5));
    return QCPScatterStyle(dot);
}

constexpr int kTileSide = 72;
constexpr int kRowRole = Qt::UserRole; // a neighbour tile's point

// The groups' colours; the grey last, for the folders folded into one group.
const QList<QColor> kColours = {QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                                QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                                QColor(227, 119, 194), QColor(188, 189, 34),  QColor(23, 190, 207),
                                QColor(127, 127, 127)};
constexpr int kNeighbours = 10;

QString top_folder(const QString& name) {
    const int slash = name.indexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : name.left(slash);
}

struct PointGroup {
    QString folder;
    QVector<double> x, y;
    int folders = 1; // more for the group of the folders folded together
};

// The points by top-level folder, one group each while there is a colour for each; beyond
// that (a thousand class folders), the largest keep theirs and the rest are one group, so
// that the colours still tell groups apart and the legend fits.
QList<PointGroup> point_groups(const QStringList& names, const QVector<double>& x,
                               const QVector<double>& y) {
    QMap<QString, PointGroup> by_folder;
    for (int i = 0; i < names.size(); ++i) {
        PointGroup& group = by_folder[top_folder(names[i])];
        group.x << x[i];
        group.y << y[i];
    }
    QList<PointGroup> groups;
    for (auto group = by_folder.begin(); group != by_folder.end(); ++group) {
        group->folder = group.key();
        groups << std::move(*group);
    }
    if (groups.size() <= kColours.size()) {
        return groups;
    }
    std::stable_sort(groups.begin(), groups.end(), [](const PointGroup& a, const PointGroup& b) {
        return a.x.size() > b.x.size();
    });
    PointGroup rest;
    rest.folders = int(groups.size()) - (kColours.size() - 1);
    for (qsizetype i = kColours.size() - 1; i < groups.size(); ++i) {
        rest.x << groups[i].x;
        rest.y << groups[i].y;
    }
    groups.resize(kColours.size() - 1);
    groups << rest;
    return groups;
}

} // namespace

EmbeddingsView::EmbeddingsView(QWidget* parent)
    : QWidget(parent), job_(this, QStringLiteral("embeddings view")) {
    setObjectName(QStringLiteral("embeddingsView"));
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("embeddingsPlot"));
    plot_->setMouseTracking(true);
    plot_->legend->setVisible(false); // until there are groups to name: no empty box
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    followPalette(plot_);
    connect(plot_, &QCustomPlot::mouseMove, this, &EmbeddingsView::mouseMoved);
    connect(plot_, &QCustomPlot::mousePress, this, &EmbeddingsView::mousePressed);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, &EmbeddingsView::resetView);
    connect(plot_, &QCustomPlot::mouseRelease, this, &EmbeddingsView::mouseReleased);
    lasso_ = new QPushButton(tr("Lasso"), this);
    lasso_->setObjectName(QStringLiteral("lassoButton"));
    lasso_->setCheckable(true);
    lasso_->setToolTip(tr("Drag around points to select them, instead of moving the plot"));
    lasso_->setEnabled(false); // until there are points
    connect(lasso_, &QPushButton::toggled, this, &EmbeddingsView::setLasso);
    export_selection_ = new QPushButton(tr("Export Selection..."), this);
    export_selection_->setObjectName(QStringLiteral("exportSelectionButton"));
    export_selection_->setEnabled(false);
    connect(export_selection_, &QPushButton::clicked, this, &EmbeddingsView::exportSelectionAs);
    copy_selection_ = new QPushButton(tr("Copy Images to Folder..."), this);
    copy_selection_->setObjectName(QStringLiteral("copySelectionButton"));
    copy_selection_->setEnabled(false);
    copy_selection_->setToolTip(tr("Copy the selected images, e.g. for a labelling tool"));
    connect(copy_selection_, &QPushButton::clicked, this, &EmbeddingsView::copySelectionTo);
    pick_ = new QPushButton(tr("Select for Labelling..."), this);
    pick_->setObjectName(QStringLiteral("selectForLabellingButton"));
    pick_->setToolTip(tr("Pick the images that are worth labelling first: typical images of "
                         "every cluster, or the most diverse ones"));
    pick_->setEnabled(false);
    connect(pick_, &QPushButton::clicked, this, &EmbeddingsView::askForLabellingPick);
    projection_ = new QComboBox(this);
    projection_->setObjectName(QStringLiteral("projectionBox"));
    projection_->addItem(tr("PCA"), QStringLiteral("pca"));
    projection_->addItem(tr("UMAP"), QStringLiteral("umap"));
    projection_->addItem(tr("t-SNE"), QStringLiteral("tsne"));
    projection_->setToolTip(tr("How the embeddings are laid out: PCA at once; UMAP and t-SNE keep "
                               "each image's neighbours close and pull clusters apart (seconds "
                               "to minutes for large sets)"));
    connect(projection_, &QComboBox::currentIndexChanged, this, &EmbeddingsView::mapAgain);
    labelAxes();
    selection_status_ = new QLabel(this);
    selection_status_->setObjectName(QStringLiteral("selectionStatus"));
    selection_status_->setTextFormat(Qt::PlainText); // it quotes paths and messages
    // An engine error names a file and the fix, often longer than the window is wide: it
    // wraps on a row of its own and never widens the window.
    selection_status_->setWordWrap(true);
    selection_status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* reset = new QPushButton(tr("Reset View"), this);
    reset->setObjectName(QStringLiteral("resetEmbeddingsViewButton"));
    reset->setToolTip(tr("Show every point again after dragging or zooming (or double-click "
                         "the plot)"));
    connect(reset, &QPushButton::clicked, this, &EmbeddingsView::resetView);
    neighbours_ = new QListWidget(this);
    neighbours_->setObjectName(QStringLiteral("neighbourList"));
    neighbours_->setViewMode(QListView::IconMode);
    neighbours_->setIconSize(QSize(kTileSide, kTileSide));
    neighbours_->setGridSize(QSize(kTileSide + 24, kTileSide + 40));
    neighbours_->setResizeMode(QListView::Adjust);
    neighbours_->setMovement(QListView::Static);
    neighbours_->setWordWrap(true);
    neighbours_->setFixedWidth(3 * (kTileSide + 24) + 24);
    // A thumbnail is a point too: clicking one makes it the selected point.
    connect(neighbours_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { selectPoint(item->data(kRowRole).toInt()); });
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("embeddingsStatus"));
    status_->setTextFormat(Qt::PlainText);
    status_->setWordWrap(true);
    auto* side = new QVBoxLayout;
    grid_title_ = new QLabel(this);
    grid_title_->setObjectName(QStringLiteral("gridTitle"));
    emptyGridForNeighbours();
    side->addWidget(grid_title_);
    side->addWidget(neighbours_, 1);
    side->addWidget(reset, 0, Qt::AlignRight);
    auto* selection = new QHBoxLayout;
    selection->addWidget(pick_);
    selection->addWidget(lasso_);
    selection->addWidget(export_selection_);
    selection->addWidget(copy_selection_);
    selection->addStretch(1);
    // The map's own row: the selection row below is as wide as a laptop allows.
    auto* mapRow = new QHBoxLayout;
    auto* mapLabel = new QLabel(tr("&Map:"), this);
    mapLabel->setBuddy(projection_);
    mapRow->addWidget(mapLabel);
    mapRow->addWidget(projection_);
    mapRow->addStretch(1);
    auto* plotColumn = new QVBoxLayout;
    plotColumn->addLayout(mapRow);
    plotColumn->addWidget(plot_, 1);
    plotColumn->addLayout(selection);
    plotColumn->addWidget(selection_status_);
    auto* map = new QWidget(this);
    auto* columns = new QHBoxLayout(map);
    columns->setContentsMargins(0, 0, 0, 0);
    columns->addLayout(plotColumn, 1);
    columns->addLayout(side);
    // Until there are points: what the tab is for and how to fill it, not empty axes.
    auto* empty = new QLabel(
        tr("<p><b>No embeddings to show yet.</b></p><p>File ▸ Export Embeddings writes them "
           "for a dataset with a trained model; Open Embeddings File below shows a file kiln "
           "embed wrote (CSV, torch or npy).</p><p>Each image becomes a point on a map, "
           "similar images close together: find near-duplicates and outliers, and pick the "
           "images worth labelling first.</p>"),
        this);
    empty->setObjectName(QStringLiteral("embeddingsEmptyHint"));
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    empty->setMaximumWidth(560);
    auto* emptyPage = new QWidget(this);
    auto* emptyLayout = new QHBoxLayout(emptyPage);
    emptyLayout->addWidget(empty);
    pages_ = new QStackedWidget(this);
    pages_->setObjectName(QStringLiteral("embeddingsPages"));
    pages_->addWidget(emptyPage);
    pages_->addWidget(map);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addWidget(pages_, 1);
}

EmbeddingsView::~EmbeddingsView() {
    job_.stopAndWait();
    decoders_.clear();
    decoders_.waitForDone(); // no thumbnail reports to a view that is gone
}

void EmbeddingsView::load(const QString& file, const QStringList& roots) {
    if (job_.isRunning()) { // loaded when it ends (catchUp); a pick of the old file is moot
        pending_load_ = {file, roots};
        if (picking_) {
            job_.stop();
        }
        return;
    }
    roots_ = roots;
    status_->setText(tr("Loading and projecting %1...").arg(QDir::toNativeSeparators(file)));
    mapOnThread(file, [file] {
        const embed::EmbeddingFile read = embed::read_embeddings(file.toStdString());
        QStringList names;
        for (const std::string& name : read.filenames) {
            names << QString::fromStdString(name);
        }
        return std::pair{read.embeddings, names};
    });
}

QString EmbeddingsView::projection() const {
    return projection_->currentData().toString();
}

void EmbeddingsView::setProjection(const QString& name) {
    const int index = projection_->findData(name);
    if (index >= 0) {
        projection_->setCurrentIndex(index);
    }
}

void EmbeddingsView::labelAxes() {
    const QString name = projection_->itemText(projection_->findData(drawn_projection_));
    const bool pca = drawn_projection_ == QLatin1String("pca");
    plot_->xAxis->setLabel(pca ? tr("first principal component") : tr("%1 1").arg(name));
    plot_->yAxis->setLabel(pca ? tr("second principal component") : tr("%1 2").arg(name));
}

void EmbeddingsView::mapAgain() {
    if (embeddings_.defined() && !job_.isRunning()) { // else mapped when the job ends (catchUp)
        status_->setText(tr("Projecting %1...").arg(QDir::toNativeSeparators(file_)));
        mapOnThread(
            file_,
            [embeddings = embeddings_, names = names_] { return std::pair{embeddings, names}; },
            unit_);
    }
}

void EmbeddingsView::mapOnThread(const QString& file,
                                 std::function<std::pair<at::Tensor, QStringList>()> source,
                                 at::Tensor unit) {
    const QString projection = this->projection();
    pick_->setEnabled(false); // picks are of the file shown, once it is
    job_.run<Mapped>(
        [projection, source = std::move(source), unit](const StopToken& stop) {
            Mapped mapped;
            std::tie(mapped.embeddings, mapped.names) = source();
            mapped.unit = unit.defined() ? unit : embed::unit_rows(mapped.embeddings);
            embed::MapOptions options;
            options.projection = *embed::projection_named(projection.toStdString());
            const at::Tensor map = embed::map_2d(mapped.embeddings, options, &stop).contiguous();
            const float* values = map.data_ptr<float>();
            for (int i = 0; i < mapped.names.size(); ++i) {
                mapped.x << values[2 * i];
                mapped.y << values[2 * i + 1];
            }
            return mapped;
        },
        [this, file, projection](const Mapped& mapped) {
            drawn_projection_ = projection;
            showLoaded(file, mapped);
            catchUp();
        },
        [this](const QString& message) {
            status_->setText(message);
            pick_->setEnabled(!names_.isEmpty());
            const QSignalBlocker unchanged(projection_); // the map drawn stays, and is named
            setProjection(drawn_projection_);
            Q_EMIT failed(message);
            catchUp();
        });
}

void EmbeddingsView::catchUp() {
    if (pending_load_) {
        const auto [file, roots] = *std::exchange(pending_load_, std::nullopt);
        load(file, roots);
    } else if (embeddings_.defined() && projection() != drawn_projection_) {
        mapAgain();
    }
}

void EmbeddingsView::showLoaded(const QString& file, const Mapped& mapped) {
    // Mapped again (another projection): the selection stays.
    const bool same_points = file == file_ && mapped.names == names_;
    const QVector<int> selection = same_points ? selection_ : QVector<int>();
    const QString selection_status = selection_status_->text();
    file_ = file;
    labelAxes();
    names_ = mapped.names;
    root_.clear();
    for (const QString& root : roots_) {
        if (!names_.isEmpty() && QFileInfo::exists(QDir(root).filePath(names_.first()))) {
            root_ = root;
            break;
        }
    }
    x_ = mapped.x;
    y_ = mapped.y;
    embeddings_ = mapped.embeddings;
    unit_ = mapped.unit;
    plot_->clearGraphs();
    plot_->legend->setVisible(true);
    if (!same_points) {
        neighbours_->clear();
    }
    const QList<PointGroup> groups = point_groups(names_, x_, y_);
    int folders = 0;
    for (qsizetype g = 0; g < groups.size(); ++g) {
        const PointGroup& group = groups[g];
        QCPGraph* graph = plot_->addGraph();
        if (group.folders > 1) {
            graph->setName(tr("%Ln other folder(s)", nullptr, group.folders));
            graph->setScatterStyle(dotStyle(kColours.last()));
        } else {
            graph->setName(group.folder.isEmpty() ? tr("(top folder)") : group.folder);
            graph->setScatterStyle(dotStyle(kColours[g]));
        }
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setData(group.x, group.y);
        folders += group.folders;
    }
    marked_ = plot_->addGraph();
    marked_->setName(tr("neighbours"));
    marked_->setLineStyle(QCPGraph::lsNone);
    selected_ = plot_->addGraph();
    selected_->setName(tr("selection"));
    selected_->setLineStyle(QCPGraph::lsNone);
    showMarks(marked_, {}, {});
    showMarks(selected_, {}, {});
    if (lasso_curve_ == nullptr) {
        lasso_curve_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
        lasso_curve_->removeFromLegend();
    }
    styleMarks();
    lasso_curve_->data()->clear();
    if (same_points) {
        showSelection(selection, selection_status);
    } else {
        selectInside({});
    }
    pick_->setEnabled(!names_.isEmpty());
    if (names_.isEmpty()) {
        lasso_->setChecked(false); // dragging moves the plot again
    }
    pages_->setCurrentIndex(names_.isEmpty() ? 0 : 1);
    lasso_->setEnabled(!names_.isEmpty());
    resetView();
    status_->setText(tr("%Ln embedding(s)", nullptr, static_cast<int>(names_.size())) +
                     QLatin1Char(' ') +
                     tr("in %Ln group(s) by top-level folder.", nullptr, folders));
    Q_EMIT loaded(static_cast<int>(names_.size()), file);
}

int EmbeddingsView::groupCount() const {
    return plot_->graphCount() > 1 ? plot_->graphCount() - 2 : 0; // less the marks
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
    if (drawing_lasso_) {
        lasso_polygon_ << plotPoint(event->position());
        lasso_curve_->addData(lasso_polygon_.back().x(), lasso_polygon_.back().y());
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const int row = nearestPoint(event->position());
    if (row >= 0) {
        QToolTip::showText(event->globalPosition().toPoint(), hoverText(row), plot_);
    } else {
        QToolTip::hideText();
    }
}

QPointF EmbeddingsView::plotPoint(const QPointF& pixel) const {
    return {plot_->xAxis->pixelToCoord(pixel.x()), plot_->yAxis->pixelToCoord(pixel.y())};
}

void EmbeddingsView::mousePressed(QMouseEvent* event) {
    if (lasso_->isChecked()) {
        drawing_lasso_ = true;
        lasso_polygon_ = {plotPoint(event->position())};
        return;
    }
    const int row = nearestPoint(event->position());
    if (row >= 0) {
        selectPoint(row);
    }
}

void EmbeddingsView::mouseReleased(QMouseEvent* event) {
    if (!drawing_lasso_) {
        return;
    }
    drawing_lasso_ = false;
    lasso_polygon_ << plotPoint(event->position());
    lasso_curve_->data()->clear();
    selectInside(lasso_polygon_);
}

void EmbeddingsView::setLasso(bool on) {
    // While the lasso draws, dragging must not move the plot.
    plot_->setInteraction(QCP::iRangeDrag, !on);
    if (lasso_->isChecked() != on) {
        lasso_->setChecked(on);
    }
    if (selection_.isEmpty()) { // the hint follows the mode
        selection_status_->setText(on ? tr("Drag around points to select them.") : QString());
    }
}

void EmbeddingsView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && marked_ != nullptr) {
        styleMarks();
        plot_->replot();
    }
}

void EmbeddingsView::styleMarks() {
    const QColor marks = palette().color(QPalette::WindowText);
    marked_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(marks, 1.5), Qt::NoBrush, 11));
    selected_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(marks, 1.5, Qt::DotLine), Qt::NoBrush, 9));
    lasso_curve_->setPen(QPen(marks, 1.0, Qt::DashLine));
}

void EmbeddingsView::selectInside(const QPolygonF& polygon) {
    QVector<int> inside;
    for (int i = 0; polygon.size() >= 3 && i < x_.size(); ++i) {
        if (polygon.containsPoint({x_[i], y_[i]}, Qt::OddEvenFill)) {
            inside << i;
        }
    }
    showSelection(inside,
                  inside.isEmpty()
                      ? (lasso_->isChecked() ? tr("Drag around points to select them.") : QString())
                      : tr("%Ln point(s) selected", nullptr, int(inside.size())));
    // The grid shows what Export Selection and Copy Images act on: a pick shown there before
    // is no longer the selection.
    if (!inside.isEmpty()) {
        showGrid(inside, tr("<b>Selected</b> with the lasso"), false);
    } else if (grid_shows_selection_) {
        emptyGridForNeighbours();
    }
}

void EmbeddingsView::showMarks(QCPGraph* marks, const QVector<double>& x,
                               const QVector<double>& y) {
    marks->setData(x, y, /*alreadySorted=*/false);
    // Named in the legend while there are any, neighbours before the selection whichever came
    // first.
    for (QCPGraph* graph : {marked_, selected_}) {
        if (graph == nullptr) {
            continue;
        }
        graph->removeFromLegend();
        if (!graph->data()->isEmpty()) {
            graph->addToLegend();
        }
    }
}

void EmbeddingsView::showSelection(const QVector<int>& rows, const QString& status) {
    selection_ = rows;
    QVector<double> x, y;
    for (const int row : rows) {
        x << x_[row];
        y << y_[row];
    }
    if (selected_ != nullptr) {
        showMarks(selected_, x, y);
        plot_->replot();
    }
    export_selection_->setEnabled(!selection_.isEmpty());
    copy_selection_->setEnabled(!selection_.isEmpty() && !root_.isEmpty());
    selection_status_->setText(status);
}

void EmbeddingsView::selectForLabelling(const SelectConfig& pick) {
    if (!embeddings_.defined()) {
        return;
    }
    if (job_.isRunning()) { // a map being drawn: pick once it is, if of the same file
        QTimer::singleShot(100, this, [this, pick, file = file_] {
            if (file == file_ && !pending_load_) {
                selectForLabelling(pick);
            }
        });
        return;
    }
    pick_->setEnabled(false);
    picking_ = true;
    selection_status_->setText(tr("Picking %Ln image(s) to label...", nullptr, int(pick.n)));
    embed::EmbeddingFile file{{}, embeddings_};
    for (const QString& name : names_) {
        file.filenames.push_back(name.toStdString());
    }
    job_.run<LabellingPicks>(
        [pick, file = std::move(file), source = file_.toStdString()](const StopToken& stop) {
            embed::SelectionOptions options = embed::selection_options(pick, file, source);
            options.stop = &stop;
            LabellingPicks picks;
            for (const std::int64_t row : embed::select_rows(file.embeddings, options).rows) {
                picks.rows << static_cast<int>(row);
            }
            picks.left_out = int(options.labelled.size() + options.excluded.size());
            return picks;
        },
        [this, strategy = QString::fromStdString(pick.strategy)](const LabellingPicks& picks) {
            picking_ = false;
            pick_->setEnabled(true);
            if (pending_load_) { // picks of the file that is being replaced
                catchUp();
                return;
            }
            QString status =
                tr("%Ln image(s) to label first (%1), highlighted", nullptr, int(picks.rows.size()))
                    .arg(strategy);
            if (picks.left_out > 0) {
                status += tr("; %Ln labelled already or near-duplicates left out", nullptr,
                             picks.left_out);
            }
            showSelection(picks.rows, status);
            showGrid(picks.rows, tr("<b>To label first</b>, in the order picked"), true);
            Q_EMIT pickingDone(int(picks.rows.size()));
            catchUp();
        },
        [this](const QString& message) {
            picking_ = false;
            pick_->setEnabled(true);
            selection_status_->setText(message);
            catchUp();
        });
}

void EmbeddingsView::askForLabellingPick() {
    LabellingPickDialog dialog(pointCount(), root_, this);
    if (dialog.exec() == QDialog::Accepted) {
        selectForLabelling(dialog.pick());
    }
}

void EmbeddingsView::emptyGridForNeighbours() {
    neighbours_->clear();
    ++grid_generation_;
    grid_title_->setText(tr("<b>Nearest neighbours</b> (click a point, or a thumbnail)"));
    grid_shows_selection_ = false;
}

void EmbeddingsView::showGrid(const QVector<int>& rows, const QString& title, bool ranked) {
    neighbours_->clear();
    ++grid_generation_;
    grid_title_->setText(title);
    grid_shows_selection_ = true;
    for (int rank = 0; rank < rows.size(); ++rank) {
        const QString name = QFileInfo(names_[rows[rank]]).fileName();
        auto* item = new QListWidgetItem(
            ranked ? QStringLiteral("%1\n#%2").arg(name).arg(rank + 1) : name, neighbours_);
        item->setData(kRowRole, rows[rank]);
        item->setToolTip(Qt::convertFromPlainText(names_[rows[rank]])); // as written
        item->setTextAlignment(Qt::AlignHCenter);
        requestThumbnail(rank, rows[rank]);
    }
    showMarks(marked_, {}, {});
    plot_->replot();
}

void EmbeddingsView::copySelection(const QString& folder) {
    copyImages(selectedNames(), root_, folder);
}

void EmbeddingsView::copyImages(const QStringList& names, const QString& root,
                                const QString& folder) {
    copy_selection_->setEnabled(false);
    if (job_.isRunning()) { // a map or a pick: these images are copied once it is done
        QTimer::singleShot(100, this,
                           [this, names, root, folder] { copyImages(names, root, folder); });
        return;
    }
    struct Copied {
        int count = 0;
        QString problem;
    };
    selection_status_->setText(tr("Copying %Ln image(s)...", nullptr, int(names.size())));
    job_.run<Copied>(
        [names, root, folder](const StopToken& stop) {
            Copied copied;
            QStringList failed;
            for (const QString& name : names) {
                if (stop.stop_requested()) { // the window closes
                    break;
                }
                const QString target = QDir(folder).filePath(name);
                QDir().mkpath(QFileInfo(target).absolutePath());
                if (QFileInfo::exists(target) || !QFile::copy(QDir(root).filePath(name), target)) {
                    failed << name;
                } else {
                    ++copied.count;
                }
            }
            if (!failed.isEmpty()) {
                copied.problem = tr("%Ln image(s) were not copied (already there, or unreadable), "
                                    "the first %1",
                                    nullptr, int(failed.size()))
                                     .arg(failed.front());
            }
            return copied;
        },
        [this, folder](const Copied& copied) {
            copy_selection_->setEnabled(!selection_.isEmpty() && !root_.isEmpty());
            selection_status_->setText(
                tr("Copied %Ln image(s) to %1", nullptr, copied.count)
                    .arg(QDir::toNativeSeparators(folder)) +
                (copied.problem.isEmpty() ? QString() : QStringLiteral("; ") + copied.problem));
            Q_EMIT copyingDone(copied.count, copied.problem);
            catchUp();
        },
        [this](const QString& message) {
            copy_selection_->setEnabled(!selection_.isEmpty() && !root_.isEmpty());
            selection_status_->setText(message);
            Q_EMIT copyingDone(0, message);
            catchUp();
        });
}

void EmbeddingsView::copySelectionTo() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Copy Images to Folder"));
    if (!folder.isEmpty()) {
        copySelection(folder);
    }
}

QStringList EmbeddingsView::selectedNames() const {
    QStringList names;
    for (const int row : selection_) {
        names << names_[row];
    }
    return names;
}

bool EmbeddingsView::exportSelection(const QString& file, QString* error) const {
    QSaveFile out(file);
    if (out.open(QIODevice::WriteOnly | QIODevice::Text)) {
        for (const QString& name : selectedNames()) {
            out.write(name.toUtf8() + '\n');
        }
        if (out.commit()) {
            return true;
        }
    }
    *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(file), out.errorString());
    return false;
}

void EmbeddingsView::exportSelectionAs() {
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export Selection"), QDir(root_).filePath(QStringLiteral("selection.txt")),
        tr("Text files, one image a line (*.txt)"));
    QString error;
    if (file.isEmpty()) {
        return;
    }
    selection_status_->setText(exportSelection(file, &error)
                                   ? tr("Wrote %Ln name(s) to %1", nullptr, int(selection_.size()))
                                         .arg(QDir::toNativeSeparators(file))
                                   : error);
}

void EmbeddingsView::selectPoint(int row) {
    if (row < 0 || row >= names_.size()) {
        return;
    }
    const std::vector<embed::Neighbour> found = embed::nearest_neighbours(unit_, row, kNeighbours);
    emptyGridForNeighbours();
    const auto add = [this](int point, const QString& caption) {
        auto* item = new QListWidgetItem(caption, neighbours_);
        item->setData(kRowRole, point);
        item->setToolTip(Qt::convertFromPlainText(names_[point]));
        item->setTextAlignment(Qt::AlignHCenter);
        requestThumbnail(neighbours_->count() - 1, point);
    };
    add(row, tr("%1\nselected").arg(QFileInfo(names_[row]).fileName()));
    QVector<double> x{x_[row]}, y{y_[row]};
    for (const embed::Neighbour& neighbour : found) {
        const int other = static_cast<int>(neighbour.row);
        add(other, QStringLiteral("%1\n%2")
                       .arg(QFileInfo(names_[other]).fileName())
                       .arg(neighbour.similarity, 0, 'f', 3));
        x << x_[other];
        y << y_[other];
    }
    showMarks(marked_, x, y);
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
        names << names_[neighbours_->item(i)->data(kRowRole).toInt()];
    }
    return names;
}

void EmbeddingsView::requestThumbnail(int index, int row) {
    const QString path = QDir(root_).filePath(names_[row]);
    const quint64 generation = grid_generation_;
    neighbours_->item(index)->setIcon(QIcon(thumbnailPlaceholder(kTileSide)));
    decoders_.start([this, path, index, generation] {
        const QImage image = decodeThumbnail(path, kTileSide);
        QMetaObject::invokeMethod(this, [this, image, index, generation] {
            if (generation == grid_generation_ && index < neighbours_->count()) {
                neighbours_->item(index)->setIcon(QIcon(image.isNull()
                                                            ? thumbnailPlaceholder(kTileSide, true)
                                                            : QPixmap::fromImage(image)));
            }
        });
    });
}

} // namespace kiln::gui
