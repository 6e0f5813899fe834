#include "common/settings_dialog.h"

#include "data/image_sizes.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QShowEvent>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

namespace kiln::gui {

SettingsDialog::SettingsDialog(const QString& object_name, const QString& title, QWidget* parent)
    : QDialog(parent) {
    setObjectName(object_name);
    setWindowTitle(title);
    problem_ = new QLabel(this);
    problem_->setTextFormat(Qt::PlainText); // the engine's message, quoting paths
    problem_->setObjectName(QStringLiteral("problemLabel"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c0392b"));
}

QSpinBox* SettingsDialog::imageSizeField() {
    auto* field = new QSpinBox(this);
    field->setObjectName(QStringLiteral("imageSizeField"));
    field->setRange(0, data::kMaxImageSide);
    field->setSpecialValueText(tr("auto (the size the model trained at)"));
    field->setSuffix(tr(" px"));
    return field;
}

nlohmann::json SettingsDialog::imageSizeSetting(const QSpinBox* field) {
    return field->value() == 0 ? nlohmann::json("auto") : nlohmann::json(field->value());
}

QLayout* SettingsDialog::withBrowse(QComboBox* box, const QString& caption, const QString& folder,
                                    const QString& filter) {
    auto* browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this, box, caption, folder, filter] {
        const QString picked = askForPath(caption, folder, filter);
        if (!picked.isEmpty()) {
            choose(box, picked);
        }
    });
    auto* row = new QHBoxLayout;
    row->addWidget(box, 1);
    row->addWidget(browse);
    return row;
}

QLayout* SettingsDialog::withChoosers(QLineEdit* field, const QString& folder,
                                      const QList<PathChooser>& choosers) {
    auto* row = new QHBoxLayout;
    row->addWidget(field, 1);
    for (const PathChooser& chooser : choosers) {
        auto* button = new QPushButton(chooser.text, this);
        connect(button, &QPushButton::clicked, this, [this, field, folder, chooser] {
            const QString picked = askForPath(chooser.caption, folder, chooser.filter);
            if (!picked.isEmpty()) {
                field->setText(QDir::toNativeSeparators(picked));
            }
        });
        row->addWidget(button);
    }
    return row;
}

QString SettingsDialog::askForPath(const QString& caption, const QString& folder,
                                   const QString& filter) {
    return filter.isEmpty() ? QFileDialog::getExistingDirectory(this, caption, folder)
                            : QFileDialog::getOpenFileName(this, caption, folder, filter);
}

QLayout* SettingsDialog::withSaveBrowse(QLineEdit* field, const QString& caption,
                                        const QString& filter) {
    auto* browse = new QPushButton(tr("Browse..."), this);
    browse->setObjectName(field->objectName() + QStringLiteral("Browse"));
    connect(browse, &QPushButton::clicked, this, [this, field, caption, filter] {
        const QString picked =
            filter.isEmpty() ? QFileDialog::getExistingDirectory(this, caption, field->text())
                             : QFileDialog::getSaveFileName(this, caption, field->text(), filter);
        if (!picked.isEmpty()) {
            field->setText(QDir::toNativeSeparators(picked));
            confirmed_out_ = QDir::cleanPath(picked); // the file dialog asked about replacing
        }
    });
    save_fields_.append(field);
    auto* row = new QHBoxLayout;
    row->addWidget(field, 1);
    row->addWidget(browse);
    return row;
}

void SettingsDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    if (event->spontaneous()) {
        return; // un-minimised: the user's size stays
    }
    int wider = 0;
    for (const QLineEdit* field : save_fields_) {
        const int needed = field->fontMetrics().horizontalAdvance(field->text()) +
                           field->fontMetrics().averageCharWidth() * 2;
        wider = std::max(wider, needed - field->contentsRect().width());
    }
    const QScreen* shown_on = screen();
    if (wider <= 0 || shown_on == nullptr) {
        return;
    }
    const QRect available = shown_on->availableGeometry();
    const int width_now = std::max(width(), std::min(width() + wider, available.width() * 9 / 10));
    // Grown on both sides, so that it stays centred over the window, and on the screen.
    const int left = std::clamp(x() - (width_now - width()) / 2, available.left(),
                                std::max(available.left(), available.right() + 1 - width_now));
    resize(width_now, height());
    move(left, y()); // the frame's position, as x() gives it
}

void SettingsDialog::choose(QComboBox* box, const QString& value) {
    int index = box->findData(value);
    if (index < 0) {
        box->addItem(QFileInfo(value).fileName(), value);
        index = box->count() - 1;
    }
    box->setCurrentIndex(index);
}

void SettingsDialog::finishLayout(QFormLayout* form, const QString& action, QWidget* note) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(action);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    if (note != nullptr) {
        layout->addWidget(note);
    }
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    // Its fields hold paths: at the size its widgets ask for (about 300 px) a path showed its
    // last twenty characters. Longer suggested paths widen it when shown.
    setMinimumWidth(fontMetrics().averageCharWidth() * 90);
}

bool SettingsDialog::replaceConfirmed(const QString& out) {
    const QString path = QDir::cleanPath(QDir::fromNativeSeparators(out));
    if (!QFileInfo::exists(path) || path == confirmed_out_) {
        return true;
    }
    QMessageBox box(QMessageBox::Warning, windowTitle(),
                    tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path)),
                    QMessageBox::Yes | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("replaceOutputBox"));
    box.setTextFormat(Qt::PlainText);
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Yes;
}

void SettingsDialog::acceptChecked(const QString& out, const std::function<void()>& resolve) {
    if (replaceConfirmed(out)) {
        acceptResolved([&out, &resolve] {
            QDir().mkpath(QFileInfo(out).absolutePath());
            resolve();
        });
    }
}

void SettingsDialog::acceptResolved(const std::function<void()>& resolve) {
    problem_->clear();
    try {
        resolve();
    } catch (const std::exception& error) { // a ConfigError lists every bad setting
        // Others too (a GPU that dropped off while its driver was asked): out of a Qt slot,
        // one would end Studio.
        problem_->setText(QString::fromStdString(error.what()));
        return;
    }
    QDialog::accept();
}

} // namespace kiln::gui
