#pragma once

class QTabWidget;
class QWidget;

namespace kiln::gui {

class DatasetsPage;
class EmbeddingsPage;
class LivePlotsPage;
class RunConfigForm;
class RunHistoryView;

// The open project's pages, in their tabs in View's order. The controllers act on them; the
// pages watch the project and the runs themselves.
struct ProjectPages {
    enum Tab { kDatasets, kRunConfiguration, kLivePlots, kRunHistory, kEmbeddings };

    explicit ProjectPages(QWidget* parent);
    ProjectPages(const ProjectPages&) = delete; // its tab handler refers to it
    ProjectPages& operator=(const ProjectPages&) = delete;
    void show(Tab tab) const;

    DatasetsPage* datasets;
    RunConfigForm* runConfig;
    LivePlotsPage* livePlots;
    RunHistoryView* runHistory;
    EmbeddingsPage* embeddings;
    QTabWidget* tabs;
};

} // namespace kiln::gui
