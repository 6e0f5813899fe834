#include "embeddings/labelling_pick_dialog.h"

#include "config/command_settings.h"
#include "core/error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
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

QString help_of(const char* name) {
    return QString::fromStdString(select_key(name).help);
}

} // namespace

LabellingPickDialog::LabellingPickDialog(int images, const QString& folder, QWidget* parent)
    : SettingsDialog(QStringLiteral("labellingPickDialog"), tr("Select for Labelling"), parent) {
    count_ = new QSpinBox(this);
    count_->setObjectName(QStringLiteral("labellingCountField"));
    count_->setRange(1, std::max(1, images));
    count_->setValue(std::min(100, std::max(1, images / 10))); // a first batch
    count_->setToolTip(tr("How many images to pick"));
    strategy_ = strategyField();
    labelled_ = new QLineEdit(this);
    labelled_->setObjectName(QStringLiteral("labelledField"));
    labelled_->setMinimumWidth(labelled_->fontMetrics().averageCharWidth() * 40);
    labelled_->setPlaceholderText(tr("none: a folder of labelled images, or a list"));
    labelled_->setToolTip(help_of("already_labelled"));
    labelled_->setClearButtonEnabled(true);
    exclude_duplicates_ = checkBox(tr("Leave out near-duplicates"), "exclude_duplicates");
    exclude_duplicates_->setObjectName(QStringLiteral("excludeDuplicatesField"));
    whiten_ = checkBox(tr("Whiten the embeddings first"), "whiten");
    whiten_->setObjectName(QStringLiteral("whitenField"));

    auto* form = new QFormLayout;
    form->addRow(tr("Images to label:"), count_);
    form->addRow(tr("Strategy:"), strategy_);
    form->addRow(tr("Labelled already:"),
                 withChoosers(labelled_, folder,
                              {{tr("Folder..."), tr("Labelled Images"), QString()},
                               {tr("List..."), tr("Names of the Labelled Images"),
                                tr("Text files, one name a line (*.txt)")}}));
    form->addRow(QString(), exclude_duplicates_);
    form->addRow(QString(), whiten_);
    finishLayout(form, tr("Select"));
}

QComboBox* LabellingPickDialog::strategyField() {
    const QMap<QString, QString> described = {
        {QStringLiteral("typical"), tr("Typical: the most typical image of each cluster")},
        {QStringLiteral("diverse"), tr("Diverse: each image far from the others")},
        {QStringLiteral("balanced"), tr("Balanced: the same number from every cluster")},
        {QStringLiteral("random"), tr("Random")}};
    auto* field = new QComboBox(this);
    field->setObjectName(QStringLiteral("labellingStrategyField"));
    const config::KeySpec& strategy = select_key("strategy");
    for (const std::string& choice : strategy.choices) {
        const QString name = QString::fromStdString(choice);
        field->addItem(described.value(name, name), name);
    }
    field->setCurrentIndex(
        field->findData(QString::fromStdString(strategy.default_value.get<std::string>())));
    field->setToolTip(QString::fromStdString(strategy.help));
    return field;
}

QCheckBox* LabellingPickDialog::checkBox(const QString& text, const char* key) {
    auto* box = new QCheckBox(text, this);
    box->setChecked(select_key(key).default_value.get<bool>());
    box->setToolTip(help_of(key));
    return box;
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
