#pragma once

#include "common/background_job.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCPGraph;
class QCustomPlot;
class QLabel;
class QListWidget;
class QMouseEvent;

namespace kiln::gui {

// The embeddings view: an embeddings file projected to 2-D (PCA) as a scatter coloured by each
// image's top-level folder; hovering a point shows its thumbnail and file name, clicking it
// lists and marks its nearest neighbours (cosine). Loading and projecting run on a thread.
class EmbeddingsView : public QWidget {
    Q_OBJECT

public:
    explicit EmbeddingsView(QWidget* parent = nullptr);
    ~EmbeddingsView() override;

    // `roots` are the dataset folders the file's names may be relative to (for thumbnails):
    // the first that holds the first image is used. Ignored while a file is loading.
    void load(const QString& file, const QStringList& roots);

    bool isLoading() const { return job_.isRunning(); }
    int pointCount() const { return static_cast<int>(names_.size()); }
    int groupCount() const;
    // What hovering `row` shows, and the neighbours a click on it lists.
    QString hoverText(int row) const;
    QStringList neighbourNames() const;

public Q_SLOTS:
    void selectPoint(int row);
    // Every point in view again, after dragging or zooming (also a double click).
    void resetView();

Q_SIGNALS:
    void loaded(int points, const QString& file);
    void failed(const QString& message);

private:
    void showLoaded(const QString& file, const QStringList& names, const QVector<double>& x,
                    const QVector<double>& y, const at::Tensor& embeddings);
    int nearestPoint(const QPointF& pixel) const;
    void mouseMoved(QMouseEvent* event);
    void mousePressed(QMouseEvent* event);

    QCustomPlot* plot_;
    QListWidget* neighbours_;
    QLabel* status_;
    QCPGraph* marked_ = nullptr;
    BackgroundJob job_;
    QStringList roots_;
    QString root_;
    QStringList names_;
    QVector<double> x_, y_;
    at::Tensor embeddings_;
};

} // namespace kiln::gui
