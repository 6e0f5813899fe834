#pragma once

#include "common/background_job.h"
#include "config/run_config.h"

#include <ATen/core/Tensor.h>
#include <QPolygonF>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <QVector>
#include <QWidget>
#include <functional>
#include <optional>
#include <utility>

class QCPCurve;
class QCPGraph;
class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QMouseEvent;
class QPushButton;
class QStackedWidget;

namespace kiln::gui {

// The embeddings view: an embeddings file projected to 2-D (PCA, or UMAP or t-SNE as chosen in
// its Map list) as a scatter coloured by each
// image's top-level folder; hovering a point shows its thumbnail and file name, clicking it
// shows its nearest neighbours (cosine) as a grid of thumbnails with their similarities and
// marks them in the scatter, and clicking a thumbnail makes it the selected point. With Lasso
// on, dragging encircles points, which Export Selection writes out by name. Select for
// Labelling picks the images to label first (kiln select's strategies) as the selection, listed
// as thumbnails; Copy Images copies the selection's files for a labelling tool. Loading,
// projecting and picking run on a thread, thumbnails decode on the thread pool.
class EmbeddingsView : public QWidget {
    Q_OBJECT

public:
    explicit EmbeddingsView(QWidget* parent = nullptr);
    ~EmbeddingsView() override;

    // `roots` are the dataset folders the file's names may be relative to (for thumbnails):
    // the first that holds the first image is used. Asked while a map is drawn or a pick runs,
    // it loads once that ends (a pick is stopped; of several asked meanwhile, the last).
    void load(const QString& file, const QStringList& roots);

    bool isLoading() const { return job_.isRunning() || pending_load_.has_value(); }
    int pointCount() const { return static_cast<int>(names_.size()); }
    int groupCount() const;
    // Where `row` is drawn, in the map's coordinates.
    QPointF position(int row) const { return {x_.value(row), y_.value(row)}; }
    // What hovering `row` shows, and the neighbours a click on it lists.
    QString hoverText(int row) const;
    QStringList neighbourNames() const;
    // The names of the points the lasso encircled.
    QStringList selectedNames() const;
    // Writes selectedNames(), one per line, atomically; false with a message in `error`.
    bool exportSelection(const QString& file, QString* error) const;
    // Copies the selected images into `folder` under their names (subfolders kept), never over
    // an existing file, on the job thread (thousands of images would freeze the window); then
    // copyingDone.
    void copySelection(const QString& folder);
    // Picks images to label as kiln select does with `pick` (its out and embeddings unused), on
    // the job thread; they become the selection, in pick order (pickingDone when they have; a
    // problem, such as an already-labelled image the embeddings lack, shows in the status).
    void selectForLabelling(const SelectConfig& pick);
    // The map drawn: pca, umap or tsne (kiln embed-map's names). Choosing another one maps the
    // loaded embeddings again on the job thread (loaded() when drawn).
    QString projection() const;
    void setProjection(const QString& name);

public Q_SLOTS:
    void selectPoint(int row);
    // Every point in view again, after dragging or zooming (also a double click).
    void resetView();
    // Dragging encircles points (on) or pans the plot (off).
    void setLasso(bool on);
    // Selects the points inside `polygon`, in plot coordinates, as a lasso drawn there does.
    void selectInside(const QPolygonF& polygon);

Q_SIGNALS:
    void loaded(int points, const QString& file);
    void pickingDone(int picked);
    // `problem`: what could not be copied (already there, or unreadable), or empty.
    void copyingDone(int copied, const QString& problem);
    void failed(const QString& message);

private:
    struct LabellingPicks {
        QVector<int> rows;
        int left_out = 0; // labelled already, or near-duplicates
    };
    // A file's embeddings as a job reads and maps them, off the GUI thread.
    struct Mapped {
        at::Tensor embeddings;
        at::Tensor unit; // the rows at unit length, for each click's nearest neighbours
        QStringList names;
        QVector<double> x, y;
    };

    // The theme changed: the marks follow its text colour.
    void changeEvent(QEvent* event) override;
    // The neighbour rings, selection squares and lasso in the text colour: black on light,
    // white on the dark theme, never one of the groups' colours.
    void styleMarks();
    void showLoaded(const QString& file, const Mapped& mapped);
    int nearestPoint(const QPointF& pixel) const;
    void mouseMoved(QMouseEvent* event);
    void mousePressed(QMouseEvent* event);
    void mouseReleased(QMouseEvent* event);
    QPointF plotPoint(const QPointF& pixel) const;
    // Decodes `row`'s image for neighbour tile `index` of the current grid, on the pool.
    void requestThumbnail(int index, int row);
    void exportSelectionAs();
    void copySelectionTo();
    // `names` (relative to `root`) into `folder`, on the job thread once it is free.
    void copyImages(const QStringList& names, const QString& root, const QString& folder);
    void askForLabellingPick();
    void showSelection(const QVector<int>& rows, const QString& status);
    // Neighbour rings or selection squares (`marks`) at x, y.
    void showMarks(QCPGraph* marks, const QVector<double>& x, const QVector<double>& y);
    // `rows` as the thumbnail grid under `title`, numbered in their order when `ranked`.
    void showGrid(const QVector<int>& rows, const QString& title, bool ranked);
    // The thumbnail grid emptied, titled for a point's nearest neighbours.
    void emptyGridForNeighbours();
    // The embeddings in memory again, with the chosen projection (one chosen while a map is
    // made is drawn after it).
    void mapAgain();
    // When a job ends: the file asked for meanwhile is loaded, or else the projection chosen
    // meanwhile drawn.
    void catchUp();
    // Maps what `source` gives on the job thread; its rows at unit length are `unit` where
    // given (mapped again), else computed there.
    void mapOnThread(const QString& file,
                     std::function<std::pair<at::Tensor, QStringList>()> source,
                     at::Tensor unit = {});
    void labelAxes();

    QCustomPlot* plot_;
    QListWidget* neighbours_;
    QLabel* grid_title_;
    QLabel* status_;
    QStackedWidget* pages_; // the empty hint, or the map
    QCPGraph* marked_ = nullptr;
    QCPGraph* selected_ = nullptr;
    QCPCurve* lasso_curve_ = nullptr;
    QPushButton* lasso_;
    QPushButton* export_selection_;
    QPushButton* copy_selection_;
    QPushButton* pick_;
    QComboBox* projection_;
    QLabel* selection_status_;
    bool drawing_lasso_ = false;
    QPolygonF lasso_polygon_;
    QVector<int> selection_;
    quint64 grid_generation_ = 0;       // thumbnails of an older grid are dropped
    bool grid_shows_selection_ = false; // a pick or the lasso's points, not neighbours
    // Its own pool: waiting for it at the end waits for its decoders, not for others' work.
    QThreadPool decoders_;
    BackgroundJob job_;
    QStringList roots_;
    QString root_;
    QString file_;
    QString drawn_projection_ = QStringLiteral("pca"); // what the axes show
    std::optional<std::pair<QString, QStringList>> pending_load_;
    bool picking_ = false;
    QStringList names_;
    QVector<double> x_, y_;
    at::Tensor embeddings_;
    at::Tensor unit_;
};

} // namespace kiln::gui
