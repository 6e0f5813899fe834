#include "embeddings/embeddings_page.h"

#include "embeddings/embeddings_view.h"
#include "project/project.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

namespace kiln::gui {

EmbeddingsPage::EmbeddingsPage(QWidget* parent)
    : QWidget(parent), view_(new EmbeddingsView(this)), remembered_(new QComboBox(this)) {
    setObjectName(QStringLiteral("embeddingsPage"));
    auto* open = new QPushButton(tr("Open Embeddings File..."), this);
    open->setObjectName(QStringLiteral("openEmbeddingsButton"));
    connect(open, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Open Embeddings"),
                                         project_ != nullptr && !project_->file().isEmpty()
                                             ? QFileInfo(project_->file()).absolutePath()
                                             : QString(),
                                         tr("Embeddings (*.csv *.pt *.npy)"));
        if (!file.isEmpty()) {
            showFile(file);
        }
    });
    remembered_->setObjectName(QStringLiteral("projectEmbeddings"));
    remembered_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    remembered_->setToolTip(tr("Embeddings files exported or opened in this project"));
    connect(remembered_, &QComboBox::activated, this, [this](int index) {
        const QString file = remembered_->itemData(index).toString();
        if (!QFileInfo::exists(file)) {
            Q_EMIT problem(tr("%1 is no longer there; export the embeddings again or open "
                              "another file.")
                               .arg(QDir::toNativeSeparators(file)));
            return;
        }
        showFile(file);
    });
    connect(view_, &EmbeddingsView::loaded, this, [this](int, const QString& file) {
        if (project_ != nullptr) {
            project_->rememberEmbeddings(file);
        }
    });
    auto* bar = new QHBoxLayout;
    auto* label = new QLabel(tr("Project embeddings:"), this);
    label->setBuddy(remembered_);
    bar->addWidget(label);
    bar->addWidget(remembered_);
    bar->addWidget(open);
    bar->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(view_, 1);
    layout->addLayout(bar);
    updateList();
}

void EmbeddingsPage::setProject(Project* project) {
    project_ = project;
    if (project_ != nullptr) {
        connect(project_, &Project::embeddingsChanged, this, &EmbeddingsPage::updateList);
    }
    updateList();
    // A reopened project shows its newest embeddings again, without picking them.
    if (project_ != nullptr && !project_->embeddings().isEmpty() &&
        QFileInfo::exists(project_->embeddings().front())) {
        showFile(project_->embeddings().front());
    }
}

void EmbeddingsPage::showFile(const QString& file) {
    QStringList folders;
    if (project_ != nullptr) {
        for (const DatasetEntry& dataset : project_->datasets()) {
            folders << dataset.path;
        }
    }
    view_->load(file, folders); // remembered once it loaded
}

void EmbeddingsPage::updateList() {
    remembered_->clear();
    const QStringList files = project_ != nullptr ? project_->embeddings() : QStringList();
    for (const QString& file : files) {
        remembered_->addItem(QFileInfo(file).fileName(), file);
        remembered_->setItemData(remembered_->count() - 1,
                                 Qt::convertFromPlainText(QDir::toNativeSeparators(file)),
                                 Qt::ToolTipRole);
    }
    if (files.isEmpty()) {
        remembered_->addItem(tr("none yet: File ▸ Export Embeddings"));
    }
    remembered_->setEnabled(!files.isEmpty());
}

} // namespace kiln::gui
