#include "app/start_page.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

namespace kiln::gui {

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("startPage"));
    auto* icon = new QLabel(this);
    icon->setPixmap(QPixmap(QStringLiteral(":/icons/kiln-256.png"))
                        .scaled(96, 96, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    auto* title = new QLabel(tr("<h1>Kiln Studio</h1>"), this);
    auto* text = new QLabel(tr("Pretrain backbones on your unlabelled images, fine-tune them on "
                               "labelled ones, and watch where the time goes. Drop a folder of "
                               "images here to start a project with it."),
                            this);
    text->setWordWrap(true);

    const auto button = [this](const QString& name, const QString& label, const QString& icon) {
        auto* button = new QPushButton(QIcon(icon), label, this);
        button->setObjectName(name);
        button->setMinimumHeight(36);
        return button;
    };
    QPushButton* create = button(QStringLiteral("startNewProjectButton"), tr("New Project"),
                                 QStringLiteral(":/icons/new.png"));
    QPushButton* open = button(QStringLiteral("startOpenProjectButton"), tr("Open Project..."),
                               QStringLiteral(":/icons/open.png"));
    demo_ = button(QStringLiteral("startDemoProjectButton"), tr("Open Demo Project"),
                   QStringLiteral(":/icons/train.png"));
    demo_->setToolTip(tr("Fashion-MNIST as image folders, with settings that pretrain a small "
                         "network in a few minutes on a CPU"));
    connect(create, &QPushButton::clicked, this, &StartPage::newProjectRequested);
    connect(open, &QPushButton::clicked, this, &StartPage::openProjectRequested);
    connect(demo_, &QPushButton::clicked, this, &StartPage::demoProjectRequested);
    demoProgress_ = new QProgressBar(this);
    demoProgress_->setObjectName(QStringLiteral("demoProgress"));
    demoProgress_->hide();

    auto* actions = new QVBoxLayout;
    actions->addWidget(icon);
    actions->addWidget(title);
    actions->addWidget(text);
    actions->addSpacing(12);
    actions->addWidget(create);
    actions->addWidget(open);
    actions->addWidget(demo_);
    actions->addWidget(demoProgress_);
    actions->addStretch();

    auto* recentHeading = new QLabel(tr("<b>Recent projects</b>"), this);
    recent_ = new QListWidget(this);
    recent_->setObjectName(QStringLiteral("recentProjectList"));
    recent_->setAlternatingRowColors(true);
    recent_->setWordWrap(true);
    noRecent_ = new QLabel(tr("Projects you open or save are listed here."), this);
    noRecent_->setEnabled(false);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        Q_EMIT recentProjectRequested(item->data(Qt::UserRole).toString());
    });
    auto* recentColumn = new QVBoxLayout;
    recentColumn->addWidget(recentHeading);
    recentColumn->addWidget(recent_, 1);
    recentColumn->addWidget(noRecent_);
    recentColumn->addStretch(); // the room the list takes when it shows: under the hint

    auto* columns = new QHBoxLayout;
    columns->addLayout(actions, 2);
    columns->addSpacing(24);
    columns->addLayout(recentColumn, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 24, 32, 24);
    layout->addLayout(columns);
}

void StartPage::setRecentProjects(const QStringList& files) {
    recent_->clear();
    for (const QString& file : files) {
        const QFileInfo info(file);
        const bool present = info.isFile();
        auto* item =
            new QListWidgetItem((present ? info.completeBaseName()
                                         : tr("%1 (not found)").arg(info.completeBaseName())) +
                                    QLatin1Char('\n') + QDir::toNativeSeparators(file),
                                recent_);
        item->setData(Qt::UserRole, file);
        item->setToolTip(Qt::convertFromPlainText(QDir::toNativeSeparators(file)));
        if (!present) {
            item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        }
    }
    recent_->setVisible(!files.isEmpty());
    noRecent_->setVisible(files.isEmpty());
}

void StartPage::showDemoProgress(qint64 done, qint64 total) {
    demo_->setEnabled(false);
    demoProgress_->show();
    demoProgress_->setRange(0, static_cast<int>(total));
    demoProgress_->setValue(static_cast<int>(done));
    demoProgress_->setFormat(tr("importing Fashion-MNIST: %1 of %2 images").arg(done).arg(total));
}

void StartPage::showDemoFinished() {
    demo_->setEnabled(true);
    demoProgress_->hide();
}

} // namespace kiln::gui
