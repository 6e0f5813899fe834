#include "app/about_dialog.h"

#include "system/hardware.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace kiln::gui {

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("About Kiln Studio"));
    setObjectName(QStringLiteral("aboutDialog"));

    const system::LibraryVersions versions = system::library_versions();

    auto* icon = new QLabel(this);
    icon->setPixmap(QPixmap(QStringLiteral(":/icons/kiln-256.png"))
                        .scaled(96, 96, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    icon->setAlignment(Qt::AlignTop);

    auto* title = new QLabel(
        QStringLiteral("<h2>Kiln Studio %1</h2>").arg(QString::fromStdString(versions.kiln)), this);
    auto* description = new QLabel(
        tr("A desktop workstation for pretraining, fine-tuning and embedding computer vision "
           "models, on CPUs and GPUs."),
        this);
    description->setWordWrap(true);

    versions_ = new QLabel(this);
    versions_->setObjectName(QStringLiteral("versionsLabel"));
    versions_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    versions_->setText(QStringList{
        QStringLiteral("Qt %1").arg(QString::fromLatin1(qVersion())),
        QStringLiteral("LibTorch %1").arg(QString::fromStdString(versions.libtorch)),
        QStringLiteral("OpenCV %1").arg(QString::fromStdString(versions.opencv)),
        QStringLiteral("SQLite %1").arg(QString::fromStdString(versions.sqlite)),
    }
                           .join(QLatin1Char('\n')));

    auto* license = new QLabel(tr("Licensed under the GNU General Public License, version 3 or "
                                  "later."),
                               this);
    license->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* text = new QVBoxLayout;
    text->addWidget(title);
    text->addWidget(description);
    text->addWidget(versions_);
    text->addWidget(license);
    text->addStretch();

    auto* body = new QHBoxLayout;
    body->addWidget(icon);
    body->addLayout(text, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(body);
    layout->addWidget(buttons);
    setMinimumWidth(460);
}

QString AboutDialog::versionsText() const {
    return versions_->text();
}

} // namespace kiln::gui
