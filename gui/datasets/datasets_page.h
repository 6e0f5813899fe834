#pragma once

#include "datasets/dataset_scan.h"
#include "methods/method_names.h"

#include <QMap>
#include <QWidget>
#include <nlohmann/json.hpp>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QListWidget;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSplitter;
class QStackedWidget;

namespace kiln::gui {

class AugmentationPreview;
class BarChart;
class Project;
class ThumbnailModel;

// The Datasets tab: the project's datasets, and for the selected one what its images and
// labels hold (counts in one number format, a resolution histogram, images or objects per
// class, box sizes, bad labels by file), its thumbnails with their labels drawn (the label
// browser), and the augmentations of a clicked thumbnail beside the original. Scans run on a
// thread and are kept per folder while the project is open.
class DatasetsPage : public QWidget {
    Q_OBJECT

public:
    explicit DatasetsPage(QWidget* parent = nullptr);

    // The open project (null: none); its dataset list is followed from then on.
    void setProject(Project* project);
    // The method and transform_args the augmentation preview follows.
    void setAugmentation(const std::string& method, const nlohmann::json& transform_args);

    QString selectedFolder() const;
    // What a scan found in `folder`, once one finished; null before.
    const DatasetStats* stats(const QString& folder) const;

Q_SIGNALS:
    void addRequested();
    void optimizeRequested(const QString& folder);
    // A scan of `folder` finished (the run time estimate needs its image count).
    void scanned(const QString& folder);

protected:
    void showEvent(QShowEvent* event) override;

private:
    // The labels row over two panes: the dataset's overview (counts, charts, label problems)
    // and its images with the augmentation preview.
    QWidget* createDetails();
    QWidget* createOverview();
    QWidget* createImages();
    // The overview pane as tall as its contents where the images keep their least height; on
    // a hidden page, once it is shown; never once the user has dragged the bar.
    void fitOverview();
    void updateList();
    void showDetails();
    void showStats(const DatasetStats& stats);
    // The augmentation settings with image_size=auto resolved from `shown`'s images, as a run
    // would resolve it.
    nlohmann::json previewArgs(const DatasetStats& shown) const;
    void showLabelStatistics(const data::LabelStatistics& labels);
    void updateButtons();
    // The label kind and path fields changed: the project records it and the labels are read
    // again.
    void applyLabels();
    // Whether `path` can be labels of `kind`: a COCO .json, a YOLO .yaml, a folder of masks.
    static bool labelsFitKind(const QString& kind, const QString& path);
    void browseLabels();
    int selectedRow() const;

    Project* project_ = nullptr;
    DatasetScanner* scanner_ = nullptr;
    QMap<QString, DatasetStats> scanned_; // by folder, for the open project
    QString shownThumbnails_;             // the folder whose thumbnails the grid shows
    bool fitWhenShown_ = false;
    bool splitChosen_ = false; // the user dragged the bar between the panes
    std::string method_ = methods::default_method();
    // A run's defaults (image_size auto) until the Run Configuration's are set.
    nlohmann::json transform_args_ = {{"image_size", "auto"}};

    QStackedWidget* listStack_ = nullptr; // the list, or a hint while there is none
    QListWidget* list_ = nullptr;
    QPushButton* remove_ = nullptr;
    QPushButton* optimize_ = nullptr;
    QStackedWidget* detailsStack_ = nullptr; // the details, or a hint with nothing selected
    QComboBox* labelKind_ = nullptr;
    QLineEdit* labelsPath_ = nullptr;
    QPushButton* browseLabels_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* summary_ = nullptr;
    BarChart* resolution_ = nullptr;
    BarChart* classes_ = nullptr;
    QLabel* labelSummary_ = nullptr;
    QListWidget* problems_ = nullptr;
    QCheckBox* showLabels_ = nullptr;
    ThumbnailModel* thumbnails_ = nullptr;
    QSplitter* panes_ = nullptr;
    QScrollArea* overview_ = nullptr;
    QListView* grid_ = nullptr;
    QLabel* previewHeading_ = nullptr;
    AugmentationPreview* preview_ = nullptr;
};

} // namespace kiln::gui
