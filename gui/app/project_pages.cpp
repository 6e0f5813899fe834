#include "app/project_pages.h"

#include "common/wheel_guard.h"
#include "datasets/datasets_page.h"
#include "embeddings/embeddings_page.h"
#include "methods/method_names.h"
#include "plots/live_plots_page.h"
#include "runs/run_history.h"
#include "training/run_config_form.h"

#include <QCoreApplication>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace kiln::gui {
namespace {

// The long pages scroll rather than make the window taller than a laptop's screen.
QScrollArea* scrolling(QWidget* content, const QString& name, QWidget* parent) {
    scrollPastUnfocusedFields(content);
    auto* area = new QScrollArea(parent);
    area->setObjectName(name);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(content);
    return area;
}

QString tabName(const char* text) {
    return QCoreApplication::translate("kiln::gui::ProjectPages", text);
}

} // namespace

ProjectPages::ProjectPages(QWidget* parent)
    : datasets(new DatasetsPage(parent)), runConfig(new RunConfigForm),
      livePlots(new LivePlotsPage), runHistory(new RunHistoryView), embeddings(new EmbeddingsPage),
      tabs(new QTabWidget(parent)) {
    tabs->setObjectName(QStringLiteral("projectTabs"));
    tabs->addTab(datasets, tabName(QT_TRANSLATE_NOOP("kiln::gui::ProjectPages", "Datasets")));
    // The form scrolls; its estimates stay in view under it, on a laptop's screen too.
    auto* runConfigPage = new QWidget(tabs);
    auto* runConfigLayout = new QVBoxLayout(runConfigPage);
    runConfigLayout->setContentsMargins(0, 0, 0, 0);
    runConfigLayout->addWidget(
        scrolling(runConfig, QStringLiteral("runConfigurationScroll"), runConfigPage), 1);
    runConfigLayout->addWidget(runConfig->estimates());
    tabs->addTab(runConfigPage,
                 tabName(QT_TRANSLATE_NOOP("kiln::gui::ProjectPages", "Run Configuration")));
    tabs->addTab(scrolling(livePlots, QStringLiteral("livePlotsScroll"), tabs),
                 tabName(QT_TRANSLATE_NOOP("kiln::gui::ProjectPages", "Live Plots")));
    tabs->addTab(runHistory, tabName(QT_TRANSLATE_NOOP("kiln::gui::ProjectPages", "Run History")));
    tabs->addTab(embeddings, tabName(QT_TRANSLATE_NOOP("kiln::gui::ProjectPages", "Embeddings")));
    QObject::connect(tabs, &QTabWidget::currentChanged, tabs, [this](int tab) {
        if (tab == kRunHistory) {
            runHistory->refresh();
        } else if (tab == kDatasets) { // the preview follows the run configuration
            const nlohmann::json settings = runConfig->settings();
            datasets->setAugmentation(settings.value("method", methods::default_method()),
                                      settings.value("transform_args", nlohmann::json::object()));
        }
    });
}

void ProjectPages::show(Tab tab) const {
    tabs->setCurrentIndex(tab);
}

} // namespace kiln::gui
