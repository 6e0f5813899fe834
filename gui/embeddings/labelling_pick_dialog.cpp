#include "embeddings/labelling_pick_dialog.h"

#include "config/command_settings.h"
#include "core/error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <algorithm>

namespace kiln::gui {
namespace {

const config::KeySpec& select_key(const char* name) {
    const config::KeySpec* key = config::select_schema().find(name);
    if (key == nullptr) {
        throw Error(std::string("kiln select has no setting \"") + name + "\"");
    }
    return *key;
}

QString tooltip(const char* name) {
    return QString::fromStdString(select_key(name).help);
}

} // namespace

LabellingPickDialog::LabellingPickDialog(int images, const QString& folder, QWidget* parent)
    : SettingsDialog(QStringLiteral("labellingPickDialog"), tr("Select for Labelling"), parent) {
    count_ = new QSpinBox(this);
    count_->setObjectName(QStringLiteral("labellingCountField"));
    count_->setRange(1, std::max(1, images));
    count_->setValue(std::min(100, std::max(1, images / 10)));
    count_->setToolTip(tooltip("n"));

    const QMap<QString, QString> described = {
        {QStringLiteral("typical"), tr("Typical: the most typical image of each cluster")},
        {QStringLiteral("diverse"), tr("Diverse: each image far from the others")},
        {QStringLiteral("balanced"), tr("Balanced: the same number from every cluster")},
        {QStringLiteral("random"), tr("Random")}};
    strategy_ = new QComboBox(this);
    strategy_->setObjectName(QStringLiteral("labellingStrategyField"));
    const config::KeySpec& strategy = select_key("strategy");
    for (const std::string& choice : strategy.choices) {
        const QString name = QString::fromStdString(choice);
        strategy_->addItem(described.value(name, name), name);
    }
    strategy_->setCurrentIndex(
        strategy_->findData(QString::fromStdString(strategy.default_value.get<std::string>())));
    strategy_->setToolTip(QString::fromStdString(strategy.help));

    labelled_ = new QLineEdit(this);
    labelled_->setObjectName(QStringLiteral("labelledField"));
    labelled_->setMinimumWidth(labelled_->fontMetrics().averageCharWidth() * 40);
    labelled_->setPlaceholderText(tr("none: a folder of labelled images, or a list"));
    labelled_->setToolTip(tooltip("already_labelled"));
    labelled_->setClearButtonEnabled(true);
    auto* labelled_folder = new QPushButton(tr("Folder..."), this);
    connect(labelled_folder, &QPushButton::clicked, this, [this, folder] {
        const QString picked =
            QFileDialog::getExistingDirectory(this, tr("Labelled Images"), folder);
        if (!picked.isEmpty()) {
            labelled_->setText(QDir::toNativeSeparators(picked));
        }
    });
    auto* labelled_list = new QPushButton(tr("List..."), this);
    connect(labelled_list, &QPushButton::clicked, this, [this, folder] {
        const QString picked =
            QFileDialog::getOpenFileName(this, tr("Names of the Labelled Images"), folder,
                                         tr("Text files, one name a line (*.txt)"));
        if (!picked.isEmpty()) {
            labelled_->setText(QDir::toNativeSeparators(picked));
        }
    });
    auto* labelled_row = new QHBoxLayout;
    labelled_row->addWidget(labelled_, 1);
    labelled_row->addWidget(labelled_folder);
    labelled_row->addWidget(labelled_list);

    exclude_duplicates_ = new QCheckBox(tr("Leave out near-duplicates"), this);
    exclude_duplicates_->setObjectName(QStringLiteral("excludeDuplicatesField"));
    exclude_duplicates_->setChecked(select_key("exclude_duplicates").default_value.get<bool>());
    exclude_duplicates_->setToolTip(tooltip("exclude_duplicates"));
    whiten_ = new QCheckBox(tr("Whiten the embeddings first"), this);
    whiten_->setObjectName(QStringLiteral("whitenField"));
    whiten_->setChecked(select_key("whiten").default_value.get<bool>());
    whiten_->setToolTip(tooltip("whiten"));

    auto* form = new QFormLayout;
    form->addRow(tr("Images to label:"), count_);
    form->addRow(tr("Strategy:"), strategy_);
    form->addRow(tr("Labelled already:"), labelled_row);
    form->addRow(QString(), exclude_duplicates_);
    form->addRow(QString(), whiten_);
    finishLayout(form, tr("Select"));
}

SelectConfig LabellingPickDialog::pick() const {
    SelectConfig pick;
    pick.n = count_->value();
    pick.strategy = strategy_->currentData().toString().toStdString();
    const QString labelled = QDir::fromNativeSeparators(labelled_->text().trimmed());
    if (!labelled.isEmpty()) {
        pick.already_labelled = labelled.toStdString();
    }
    pick.exclude_duplicates = exclude_duplicates_->isChecked();
    pick.duplicate_threshold = select_key("duplicate_threshold").default_value.get<double>();
    pick.whiten = whiten_->isChecked();
    return pick;
}

void LabellingPickDialog::accept() {
    acceptResolved([this] {
        const SelectConfig chosen = pick();
        if (chosen.already_labelled &&
            !QFileInfo::exists(QString::fromStdString(chosen.already_labelled->string()))) {
            throw Error("\"" + chosen.already_labelled->string() +
                        "\" does not exist; choose the folder of the labelled images, or a "
                        "list of their names, one a line");
        }
    });
}

} // namespace kiln::gui
