#include "datasets/datasets_page.h"

#include "common/bar_chart.h"
#include "data/image_sizes.h"
#include "data/view_transform.h"
#include "datasets/augmentation_preview.h"
#include "datasets/thumbnail_model.h"
#include "project/project.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace kiln::gui {
namespace {

// The augmentation preview's height with its views and their note, and the least it shrinks to
// (then scrolling) so that the window still fits a short screen.
constexpr int kPreviewWhole = 190;
constexpr int kPreviewLeast = 120;

// Asks for the preview's whole height: a scroll area's own hint is its contents' at the start,
// before there is an image to preview.
class PreviewScroll : public QScrollArea {
public:
    using QScrollArea::QScrollArea;
    QSize sizeHint() const override { return {QScrollArea::sizeHint().width(), kPreviewWhole}; }
};

QLabel* hint(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignCenter);
    label->setEnabled(false); // the palette's muted text, readable in both themes
    label->setMargin(24);
    return label;
}

QString percent(qint64 part, qint64 whole) {
    return QLocale().toString(whole > 0 ? 100.0 * double(part) / double(whole) : 0.0, 'f', 1) +
           QLatin1Char('%');
}

} // namespace

DatasetsPage::DatasetsPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("datasetsPage"));
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("datasetList"));
    // A long path loses its middle, not its end, and never needs a scroll bar.
    list_->setTextElideMode(Qt::ElideMiddle);
    list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    listStack_ = new QStackedWidget(this);
    auto* emptyList = hint(tr("No datasets yet.\n\nAdd a folder of images with Add Dataset "
                              "Folder, or drop it here. Class folders, images with masks, and "
                              "COCO or YOLO labels are recognised."),
                           listStack_);
    emptyList->setObjectName(QStringLiteral("noDatasetsHint"));
    listStack_->addWidget(emptyList);
    listStack_->addWidget(list_);
    auto* add = new QPushButton(tr("Add Dataset Folder..."), this);
    add->setObjectName(QStringLiteral("addDatasetButton"));
    connect(add, &QPushButton::clicked, this, &DatasetsPage::addRequested);
    remove_ = new QPushButton(tr("Remove"), this);
    remove_->setObjectName(QStringLiteral("removeDatasetButton"));
    remove_->setToolTip(tr("Remove the selected dataset from the project; its files stay"));
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (project_ != nullptr && selectedRow() >= 0) {
            project_->removeDataset(selectedRow());
        }
    });
    optimize_ = new QPushButton(tr("Optimize..."), this);
    optimize_->setObjectName(QStringLiteral("optimizeDatasetButton"));
    optimize_->setToolTip(tr("Re-encode the selected dataset as JPEG or WebP at training size"));
    connect(optimize_, &QPushButton::clicked, this,
            [this] { Q_EMIT optimizeRequested(selectedFolder()); });
    // Add on a row of its own: its label is long (in German too), the list pane narrow.
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(remove_);
    buttons->addWidget(optimize_);
    buttons->addStretch();
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(listStack_, 1);
    leftLayout->addWidget(add);
    leftLayout->addLayout(buttons);

    detailsStack_ = new QStackedWidget(this);
    auto* nothingSelected =
        hint(tr("Select a dataset to see its images, labels and statistics."), detailsStack_);
    nothingSelected->setObjectName(QStringLiteral("noDatasetSelectedHint"));
    detailsStack_->addWidget(nothingSelected);
    detailsStack_->addWidget(createDetails());

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(detailsStack_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);
    left->setMinimumWidth(std::max(220, left->minimumSizeHint().width()));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("<h2>Datasets</h2>"), this));
    layout->addWidget(splitter, 1);

    scanner_ = new DatasetScanner(this);
    connect(list_, &QListWidget::currentRowChanged, this, [this] {
        updateButtons();
        showDetails();
    });
    connect(scanner_, &DatasetScanner::progress, this,
            [this](const QString& folder, qint64 done, qint64 total) {
                if (folder == selectedFolder()) {
                    progress_->setRange(0, static_cast<int>(total));
                    progress_->setValue(static_cast<int>(done));
                }
            });
    connect(scanner_, &DatasetScanner::finished, this,
            [this](const QString& folder, const DatasetStats& stats) {
                scanned_.insert(folder, stats);
                Q_EMIT scanned(folder);
                if (folder == selectedFolder()) {
                    showDetails();
                }
            });
    connect(scanner_, &DatasetScanner::failed, this,
            [this](const QString& folder, const QString& message) {
                if (folder == selectedFolder()) {
                    progress_->hide();
                    summary_->setText(message);
                }
            });
    updateList();
}

QWidget* DatasetsPage::createDetails() {
    auto* details = new QWidget;
    labelKind_ = new QComboBox(details);
    labelKind_->setObjectName(QStringLiteral("labelKindCombo"));
    labelKind_->addItem(tr("Images without labels"), QStringLiteral("images"));
    labelKind_->addItem(tr("Class folders"), QStringLiteral("class_folders"));
    labelKind_->addItem(tr("Images with masks"), QStringLiteral("masks"));
    labelKind_->addItem(tr("COCO annotations"), QStringLiteral("coco"));
    labelKind_->addItem(tr("YOLO dataset (data.yaml)"), QStringLiteral("yolo"));
    labelKind_->setToolTip(tr("What labels the dataset has: found when it was added; change it "
                              "if Kiln guessed wrong"));
    connect(labelKind_, &QComboBox::activated, this, &DatasetsPage::applyLabels);
    labelsPath_ = new QLineEdit(details);
    labelsPath_->setObjectName(QStringLiteral("labelsPathField"));
    connect(labelsPath_, &QLineEdit::editingFinished, this, &DatasetsPage::applyLabels);
    browseLabels_ = new QPushButton(tr("Browse..."), details);
    browseLabels_->setObjectName(QStringLiteral("browseLabelsButton"));
    connect(browseLabels_, &QPushButton::clicked, this, &DatasetsPage::browseLabels);
    auto* labelsRow = new QHBoxLayout;
    labelsRow->addWidget(new QLabel(tr("Labels:"), details));
    labelsRow->addWidget(labelKind_);
    labelsRow->addWidget(labelsPath_, 1);
    labelsRow->addWidget(browseLabels_);

    // Two panes, each scrolling on its own, rather than one page scrolling around a grid that
    // scrolls too: at 1366 x 768 the augmentations fell below the page's fold.
    panes_ = new QSplitter(Qt::Vertical, details);
    panes_->setObjectName(QStringLiteral("datasetPanes"));
    panes_->setChildrenCollapsible(false);
    panes_->addWidget(createOverview());
    panes_->addWidget(createImages());
    panes_->setStretchFactor(0, 0);
    panes_->setStretchFactor(1, 1);
    connect(panes_, &QSplitter::splitterMoved, this, [this] { splitChosen_ = true; });

    auto* layout = new QVBoxLayout(details);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(labelsRow);
    layout->addWidget(panes_, 1);
    return details;
}

QWidget* DatasetsPage::createOverview() {
    auto* overview = new QWidget;
    progress_ = new QProgressBar(overview);
    progress_->setObjectName(QStringLiteral("datasetScanProgress"));
    progress_->hide();
    summary_ = new QLabel(overview);
    summary_->setObjectName(QStringLiteral("datasetStats"));
    summary_->setTextFormat(Qt::PlainText); // it quotes paths and file names
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resolution_ = new BarChart(overview);
    resolution_->setObjectName(QStringLiteral("resolutionChart"));
    resolution_->setTitle(tr("Images by longest side"));
    classes_ = new BarChart(overview);
    classes_->setObjectName(QStringLiteral("classChart"));
    auto* charts = new QHBoxLayout;
    charts->addWidget(resolution_, 1, Qt::AlignTop);
    charts->addWidget(classes_, 1, Qt::AlignTop);
    labelSummary_ = new QLabel(overview);
    labelSummary_->setObjectName(QStringLiteral("labelSummary"));
    labelSummary_->setTextFormat(Qt::PlainText);
    labelSummary_->setWordWrap(true);
    labelSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_ = new QListWidget(overview);
    problems_->setObjectName(QStringLiteral("labelProblems"));
    problems_->setMaximumHeight(120);
    problems_->setWordWrap(true);

    auto* layout = new QVBoxLayout(overview);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(progress_);
    layout->addWidget(summary_);
    layout->addLayout(charts);
    layout->addWidget(labelSummary_);
    layout->addWidget(problems_);
    layout->addStretch();
    overview_ = new QScrollArea;
    overview_->setObjectName(QStringLiteral("datasetOverviewScroll"));
    overview_->setWidget(overview);
    overview_->setWidgetResizable(true);
    overview_->setFrameShape(QFrame::NoFrame);
    return overview_;
}

QWidget* DatasetsPage::createImages() {
    auto* images = new QWidget;
    showLabels_ = new QCheckBox(tr("Show labels"), images);
    showLabels_->setObjectName(QStringLiteral("showLabelsCheck"));
    showLabels_->setChecked(true);
    thumbnails_ = new ThumbnailModel(this);
    connect(showLabels_, &QCheckBox::toggled, thumbnails_, &ThumbnailModel::setShowLabels);
    auto* imagesRow = new QHBoxLayout;
    imagesRow->addWidget(
        new QLabel(tr("<b>Images</b> (click one to preview its augmentations)"), images));
    imagesRow->addStretch();
    imagesRow->addWidget(showLabels_);
    grid_ = new QListView(images);
    grid_->setObjectName(QStringLiteral("thumbnailGrid"));
    grid_->setViewMode(QListView::IconMode);
    grid_->setResizeMode(QListView::Adjust);
    grid_->setUniformItemSizes(true);
    grid_->setIconSize(QSize(ThumbnailModel::kSide, ThumbnailModel::kSide));
    grid_->setMovement(QListView::Static);
    grid_->setMinimumHeight(ThumbnailModel::kSide + 24 + 8); // one row and its names
    grid_->setModel(thumbnails_);
    connect(grid_, &QListView::clicked, this, [this](const QModelIndex& index) {
        const QString file = thumbnails_->file(index.row());
        previewHeading_->setText(tr("<b>Augmentations of %1</b> (the Run Configuration's method)")
                                     .arg(QFileInfo(file).fileName().toHtmlEscaped()));
        preview_->setImage(file);
    });
    previewHeading_ = new QLabel(images);
    preview_ = new AugmentationPreview(images);
    auto* previewScroll = new PreviewScroll(images); // eight views of DINO are wide
    previewScroll->setObjectName(QStringLiteral("augmentationPreviewScroll"));
    previewScroll->setWidget(preview_);
    previewScroll->setWidgetResizable(true);
    previewScroll->setFrameShape(QFrame::NoFrame);
    previewScroll->setMinimumHeight(kPreviewLeast);

    auto* layout = new QVBoxLayout(images);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(imagesRow);
    layout->addWidget(grid_, 1);
    layout->addWidget(previewHeading_);
    layout->addWidget(previewScroll);
    return images;
}

void DatasetsPage::setProject(Project* project) {
    scanner_->cancel();
    scanned_.clear();
    shownThumbnails_.clear();
    {
        const QSignalBlocker blocker(list_);
        list_->clear(); // another project's datasets are not "added" to this one
    }
    project_ = project;
    if (project_ != nullptr) {
        connect(project_, &Project::datasetsChanged, this, &DatasetsPage::updateList);
    }
    updateList();
}

void DatasetsPage::setAugmentation(const std::string& method,
                                   const nlohmann::json& transform_args) {
    method_ = method;
    transform_args_ = transform_args;
    const DatasetStats* shown = stats(shownThumbnails_);
    preview_->setSettings(method, shown != nullptr ? previewArgs(*shown) : transform_args);
}

nlohmann::json DatasetsPage::previewArgs(const DatasetStats& shown) const {
    if (shown.sizes.empty()) {
        return transform_args_;
    }
    return data::with_resolved_image_size(
        transform_args_,
        [&shown] { return data::auto_view_size(shown.sizes, data::kMethodViewSide); },
        /*logged=*/false); // a run's train.log is no place for a preview's size
}

int DatasetsPage::selectedRow() const {
    const int row = list_->currentRow();
    return project_ != nullptr && row >= 0 && row < project_->datasets().size() ? row : -1;
}

QString DatasetsPage::selectedFolder() const {
    const int row = selectedRow();
    return row >= 0 ? project_->datasets().at(row).path : QString();
}

const DatasetStats* DatasetsPage::stats(const QString& folder) const {
    const auto found = scanned_.constFind(folder);
    return found == scanned_.constEnd() ? nullptr : &*found;
}

void DatasetsPage::updateList() {
    QStringList before;
    for (int i = 0; i < list_->count(); ++i) {
        before << list_->item(i)->data(Qt::UserRole).toString();
    }
    const QString selected = selectedFolder();
    const QSignalBlocker blocker(list_);
    list_->clear();
    int select = -1;
    const QList<DatasetEntry> datasets =
        project_ != nullptr ? project_->datasets() : QList<DatasetEntry>();
    for (int i = 0; i < datasets.size(); ++i) {
        const DatasetEntry& dataset = datasets[i];
        const bool missing = !QFileInfo(dataset.path).isDir();
        auto* item = new QListWidgetItem(
            missing
                ? tr("%1 - %2 (missing)").arg(dataset.name, QDir::toNativeSeparators(dataset.path))
                : tr("%1 - %2").arg(dataset.name, QDir::toNativeSeparators(dataset.path)),
            list_);
        item->setData(Qt::UserRole, dataset.path);
        item->setToolTip(Qt::convertFromPlainText(QDir::toNativeSeparators(dataset.path)));
        if (dataset.path == selected && select < 0) {
            select = i;
        }
        // A dataset that was just added is selected, so that its details show at once.
        if (!before.isEmpty() && !before.contains(dataset.path)) {
            select = i;
        }
    }
    if (select < 0 && !datasets.isEmpty()) {
        select = 0; // its details at a glance
    }
    list_->setCurrentRow(select);
    listStack_->setCurrentIndex(datasets.isEmpty() ? 0 : 1);
    updateButtons();
    showDetails();
}

void DatasetsPage::updateButtons() {
    const bool selected = selectedRow() >= 0;
    remove_->setEnabled(selected);
    optimize_->setEnabled(selected);
}

void DatasetsPage::showDetails() {
    const int row = selectedRow();
    if (row < 0) {
        detailsStack_->setCurrentIndex(0);
        progress_->hide();
        thumbnails_->setFiles({});
        shownThumbnails_.clear();
        return;
    }
    detailsStack_->setCurrentIndex(1);
    const DatasetEntry& dataset = project_->datasets().at(row);
    labelKind_->setCurrentIndex(std::max(0, labelKind_->findData(dataset.kind)));
    labelsPath_->setText(QDir::toNativeSeparators(dataset.labels));
    const bool has_file = dataset.kind == QLatin1String("masks") ||
                          dataset.kind == QLatin1String("coco") ||
                          dataset.kind == QLatin1String("yolo");
    labelsPath_->setEnabled(has_file);
    browseLabels_->setEnabled(has_file);
    labelsPath_->setPlaceholderText(
        dataset.kind == QLatin1String("masks")  ? tr("folder of PNG masks named as the images")
        : dataset.kind == QLatin1String("coco") ? tr("COCO instances JSON")
        : dataset.kind == QLatin1String("yolo") ? tr("data.yaml")
                                                : QString());
    const data::DatasetLayout layout{
        data::parse_label_kind(dataset.kind.toStdString()).value_or(data::LabelKind::Images),
        dataset.path.toStdString(), dataset.labels.toStdString()};
    const auto found = scanned_.constFind(dataset.path);
    // A scan of other labels (a change of them undone) is made again.
    if (found == scanned_.constEnd() || found->layout.kind != layout.kind ||
        found->layout.labels != layout.labels) {
        summary_->setText(tr("Scanning %1...").arg(QDir::toNativeSeparators(dataset.path)));
        progress_->setRange(0, 0);
        progress_->show();
        resolution_->hide();
        classes_->hide();
        labelSummary_->hide();
        problems_->hide();
        shownThumbnails_.clear();
        scanner_->scan(dataset.path, layout);
        return;
    }
    progress_->hide();
    showStats(*found);
    if (shownThumbnails_ != dataset.path || thumbnails_->rowCount() != found->files.size()) {
        thumbnails_->setFiles(found->files, found->labels);
        shownThumbnails_ = dataset.path;
        previewHeading_->setText(tr("<b>Augmentations of %1</b> (the Run Configuration's method)")
                                     .arg(QFileInfo(found->sample).fileName().toHtmlEscaped()));
        preview_->setSettings(method_, previewArgs(*found));
        preview_->setImage(found->sample);
    }
}

void DatasetsPage::showStats(const DatasetStats& stats) {
    const QLocale locale;
    QStringList formats;
    for (auto format = stats.formats.cbegin(); format != stats.formats.cend(); ++format) {
        formats << QStringLiteral("%1 %2").arg(format.key(), locale.toString(format.value()));
    }
    QString text = tr("%Ln readable image(s), %1", nullptr, int(stats.images))
                       .arg(locale.formattedDataSize(stats.bytes)) +
                   QLatin1Char('\n') + tr("Formats: %1").arg(formats.join(QStringLiteral(", ")));
    if (!stats.unreadable.isEmpty()) {
        text += QLatin1Char('\n') + tr("%Ln unreadable file(s), left out of training:", nullptr,
                                       int(stats.unreadable.size()));
        for (const QString& file : stats.unreadable.mid(0, 10)) {
            text += QStringLiteral("\n  ") + QDir::toNativeSeparators(file);
        }
    }
    summary_->setText(text);
    const QStringList sizes = {tr("under 256 px"), tr("256-511 px"), tr("512-1023 px"),
                               tr("1024-2047 px"), tr("2048 px and more")};
    QList<BarChart::Bar> bars;
    for (int i = 0; i < 5; ++i) {
        bars.append({sizes[i], stats.longest_side[std::size_t(i)],
                     percent(stats.longest_side[std::size_t(i)], stats.images)});
    }
    resolution_->setBars(bars);
    resolution_->show();
    if (stats.labels != nullptr) {
        showLabelStatistics(*stats.labels);
    } else {
        classes_->hide();
        labelSummary_->hide();
        problems_->hide();
    }
    fitOverview();
}

void DatasetsPage::fitOverview() {
    if (splitChosen_) { // the user's split stays
        return;
    }
    if (!panes_->isVisible()) { // its height is not known yet: fitted once shown
        fitWhenShown_ = true;
        return;
    }
    fitWhenShown_ = false;
    QWidget* overview = overview_->widget();
    overview->layout()->activate(); // its size hint follows the charts just filled
    const int total = panes_->height() - panes_->handleWidth();
    // The augmentations whole (they may shrink to kPreviewLeast, scrolling, on a short window).
    const int images =
        panes_->widget(1)->minimumSizeHint().height() + kPreviewWhole - kPreviewLeast;
    const int wanted = overview->sizeHint().height();
    const int top =
        std::max(overview_->minimumSizeHint().height(), std::min(wanted, total - images));
    panes_->setSizes({top, std::max(0, total - top)});
}

void DatasetsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (fitWhenShown_) { // after the layout has given the panes their height
        QTimer::singleShot(0, this, &DatasetsPage::fitOverview);
    }
}

void DatasetsPage::showLabelStatistics(const data::LabelStatistics& labels) {
    const QLocale locale;
    const bool boxes = labels.kind == data::LabelKind::Coco || labels.kind == data::LabelKind::Yolo;
    qint64 objects = 0;
    qint64 pixels = 0;
    for (const data::ClassLabelCount& count : labels.classes) {
        objects += count.objects;
    }
    pixels = objects + labels.ignored_pixels;
    QList<BarChart::Bar> bars;
    for (const data::ClassLabelCount& count : labels.classes) {
        const QString name = QString::fromStdString(count.name);
        if (boxes) {
            bars.append({name, count.objects,
                         tr("objects in %1 images").arg(locale.toString(count.images))});
        } else if (labels.kind == data::LabelKind::Masks) {
            bars.append({name, count.images,
                         tr("images; %1 of the pixels").arg(percent(count.objects, pixels))});
        } else {
            bars.append({name, count.images, tr("images")});
        }
    }
    classes_->setTitle(boxes ? tr("Objects per class") : tr("Images per class"));
    classes_->setBars(bars);
    classes_->setVisible(!bars.isEmpty());

    QString text;
    const QString images = locale.toString(labels.images);
    switch (labels.kind) {
    case data::LabelKind::ClassFolders:
        text = tr("%1 classes, %2 of %3 images in class folders")
                   .arg(locale.toString(qint64(labels.classes.size())),
                        locale.toString(labels.images - labels.unlabelled_images), images);
        break;
    case data::LabelKind::Masks:
        text = tr("%1 classes in the masks of %2 images; %3 images have no labelled pixel, "
                  "%4 of the pixels are ignored (255)")
                   .arg(locale.toString(qint64(labels.classes.size())), images,
                        locale.toString(labels.unlabelled_images),
                        percent(labels.ignored_pixels, pixels));
        break;
    case data::LabelKind::Coco:
    case data::LabelKind::Yolo:
        text = tr("Training split: %1 objects of %2 classes in %3 images, %4 of them without "
                  "objects. Box sizes: %5 small, %6 medium, %7 large (COCO's limits: 32 and 96 "
                  "px)")
                   .arg(locale.toString(objects), locale.toString(qint64(labels.classes.size())),
                        images, locale.toString(labels.unlabelled_images),
                        locale.toString(labels.object_sizes[0]),
                        locale.toString(labels.object_sizes[1]),
                        locale.toString(labels.object_sizes[2]));
        break;
    case data::LabelKind::Images:
        break;
    }
    for (const std::string& warning : labels.warnings) {
        text += QLatin1Char('\n') + QString::fromStdString(warning);
    }
    if (!labels.problems.empty()) {
        text += QLatin1Char('\n') + tr("%Ln problem(s) with the labels, listed below; training "
                                       "refuses the dataset until they are fixed.",
                                       nullptr, int(labels.problems.size()));
    }
    labelSummary_->setText(text);
    labelSummary_->setVisible(!text.isEmpty());
    problems_->clear();
    for (const std::string& problem : labels.problems) {
        problems_->addItem(QString::fromStdString(problem));
    }
    problems_->setVisible(!labels.problems.empty());
}

void DatasetsPage::applyLabels() {
    const int row = selectedRow();
    if (row < 0) {
        return;
    }
    const QString kind = labelKind_->currentData().toString();
    const bool has_file = kind == QLatin1String("masks") || kind == QLatin1String("coco") ||
                          kind == QLatin1String("yolo");
    QString path = has_file ? QDir::fromNativeSeparators(labelsPath_->text().trimmed()) : QString();
    if (!labelsFitKind(kind, path)) {
        path.clear(); // another kind's file (a data.yaml kept as COCO's JSON): asked for again
        labelsPath_->clear();
    }
    const DatasetEntry dataset = project_->datasets().at(row);
    if (dataset.kind == kind &&
        dataset.labels == (path.isEmpty() ? QString() : QDir::cleanPath(path))) {
        return;
    }
    scanned_.remove(dataset.path); // its labels are read again
    shownThumbnails_.clear();
    project_->setDatasetLabels(row, kind, path);
}

bool DatasetsPage::labelsFitKind(const QString& kind, const QString& path) {
    const QFileInfo file(path);
    const QString suffix = file.suffix().toLower();
    if (path.isEmpty() || kind == QLatin1String("masks")) {
        return path.isEmpty() || !file.isFile();
    }
    return kind == QLatin1String("coco")
               ? suffix == QLatin1String("json")
               : suffix == QLatin1String("yaml") || suffix == QLatin1String("yml");
}

void DatasetsPage::browseLabels() {
    const QString kind = labelKind_->currentData().toString();
    const QString start = labelsPath_->text().isEmpty() ? selectedFolder() : labelsPath_->text();
    const QString chosen =
        kind == QLatin1String("masks")
            ? QFileDialog::getExistingDirectory(this, tr("Folder of Masks"), start)
            : QFileDialog::getOpenFileName(
                  this, kind == QLatin1String("coco") ? tr("COCO Annotations") : tr("data.yaml"),
                  start,
                  kind == QLatin1String("coco") ? tr("COCO JSON (*.json)")
                                                : tr("YOLO data file (*.yaml *.yml)"));
    if (!chosen.isEmpty()) {
        labelsPath_->setText(QDir::toNativeSeparators(chosen));
        applyLabels();
    }
}

} // namespace kiln::gui
