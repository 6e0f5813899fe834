#pragma once

#include "common/background_job.h"
#include "track/step_values.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <optional>

class QComboBox;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QMenu;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QUndoStack;

namespace kiln::gui {

// One run as the history table shows it, read from a run directory's run.db.
struct RunRow {
    QString directory; // the run directory
    qint64 id = 0;     // the run's id in its run.db
    QString status;
    QString method;
    QString model;
    double started = 0; // Unix seconds
    double duration = 0;
    qint64 steps = 0;
    double final_loss = 0;
    double images_per_second = 0;
    double data_wait = 0; // median, fraction
    QString task;         // pretrain, image_classification, semantic_segmentation
    QString watch_metric; // fine-tuning
    std::optional<double> best_validation;
    int image_size = 0;    // the run's transform_args.image_size (height); 0 when it does not say
    QString dataset;       // the folder (or annotation file) it trained on, by name
    QString length;        // "100 epochs" or "500 steps"
    QString learning_rate; // optim_args.lr, or "auto"
    QString config;        // the resolved settings, JSON
    // What the user said about it (Run History's Run, Tags and Notes cells), kept in run.db.
    QString name;
    QString notes;
    QStringList tags;

    // The name the user gave it, else its folder's.
    QString displayName() const;
    // Its method (pretraining), else its task as Run History's Method column says it.
    QString trainedAs() const;
    // runCheckpoint of its directory.
    QString checkpoint() const;
    // For a pretraining run, the model a fine-tuning or a distillation starts from
    // (track::RunDirectory::pretrained_model); empty for other runs and those with none yet.
    QString pretrainedModel() const;
};

// The best checkpoint (of the watched metric or the kNN monitor) of the run in `directory`,
// else its last; empty when it has none yet.
QString runCheckpoint(const QString& directory);

// Every run recorded under `folder` (its run.db and those of its subfolders, two levels down),
// newest first. Unreadable databases are skipped and named in `problems`.
QVector<RunRow> read_runs(const QString& folder, QStringList* problems = nullptr);

// The newest run recorded in `directory`, as its run.db has it, for the plots. Throws
// kiln::Error when there is none or the database cannot be read.
track::RecordedHistory read_recorded_history(const QString& directory);

// The project's runs as a table: name, status, method, model, dataset, length, image size,
// learning rate, start, duration, steps, final loss, best validation, images/s, median
// data_wait, tags and notes. Name, tags and notes are edited in place and written to run.db.
// Qt::UserRole gives each cell's value to sort by.
class RunHistoryModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // What Studio calls a run.db status ("cancelled" reads "Stopped").
    static QString statusText(const QString& status);
    // What the Method column calls a fine-tuning run's task ("image_classification" reads
    // "classification").
    static QString taskText(const QString& task);
    enum Column {
        Run,
        Status,
        Method,
        Model,
        Dataset,
        Length,
        ImageSize,
        LearningRate,
        Started,
        Duration,
        Steps,
        Loss,
        BestValidation,
        Throughput,
        DataWait,
        Tags,
        Notes,
        ColumnCount
    };
    // What the filter matches: every cell's text, and the whole of the notes.
    static constexpr int kFilterRole = Qt::UserRole + 1;
    explicit RunHistoryModel(QObject* parent = nullptr);

    // A column's header, and what it shows (its tooltip and its entry in the column menu).
    static QString columnTitle(int column);
    static QString columnDescription(int column);

    void setRuns(QVector<RunRow> runs);
    const QVector<RunRow>& runs() const { return runs_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Renames, tags (comma-separated) or annotates a run, as an edit on undoStack(); false,
    // with labelsNotSaved, when its run.db cannot be written.
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    // The name, tags and notes of `labelled` (the run at its directory and id) written to its
    // run.db and shown; false, with labelsNotSaved, when it cannot be written.
    bool writeLabels(const RunRow& labelled);
    // The edits of runs' names, tags and notes (Edit ▸ Undo while Run History is shown).
    QUndoStack* undoStack() const { return undoStack_; }

Q_SIGNALS:
    void labelsNotSaved(const QString& message);

private:
    QVector<RunRow> runs_;
    QUndoStack* undoStack_;
};

struct RecordedCurves; // what the selected runs recorded of one metric

// The Run History view: a filter, the table (sorted by any column), the selected runs' curves
// overlaid (the training loss or any validation metric they recorded), and buttons to
// refresh, compare the selected runs, resume a run, export its model, open its folder and
// delete it (after asking).
class RunHistoryView : public QWidget {
    Q_OBJECT

public:
    explicit RunHistoryView(QWidget* parent = nullptr);
    ~RunHistoryView() override;

    // Where the project's runs live; empty shows an empty table.
    void setFolder(const QString& folder);
    QString folder() const { return folder_; }
    RunHistoryModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    // The curves drawn for the selected runs, one graph per run that recorded the metric.
    int curveCount() const;
    // The metrics the curves can show for the selection; the one shown.
    QStringList curveMetrics() const;
    // By key: train_loss, val_metric/top1_acc_micro.
    void setCurveMetric(const QString& metric);
    // Shows only the runs whose cells contain `text` (any column, any case).
    void setFilterText(const QString& text);
    // The selected runs, in the table's order.
    QVector<RunRow> selectedRuns() const;
    // Shows or hides a column (the header's right-click menu), remembered for next time.
    void setColumnShown(int column, bool shown);
    // That menu, one checkable entry a column.
    QMenu* columnMenu();

    bool isRefreshing() const { return job_.isRunning(); }
    bool isReadingCurves() const { return curves_job_.isRunning(); }

public Q_SLOTS:
    // Reads the runs on a thread (a run.db of a long run holds many rows) and shows them.
    void refresh();
    void openSelectedFolder();
    // Deletes the selected run's files after confirmation; false if cancelled or none.
    bool deleteSelectedRun();
    // Asks for the selected run to continue from its last checkpoint (interrupted or stopped
    // runs only).
    void resumeSelectedRun();
    // Opens the settings, results and validation metrics of the selected runs side by side.
    void compareSelectedRuns();

Q_SIGNALS:
    void resumeRequested(const QString& directory);
    void exportRequested(const QString& directory); // Export Model for the selected run
    void refreshed();
    // The selected runs' curves are drawn (they are read off the GUI thread).
    void curvesDrawn();

private:
    const RunRow* selectedRun() const;
    void updateButtons();
    void updateCurves();
    // After a read: reads again when asked meanwhile, else says it is refreshed.
    void refreshedOrAgain();
    void showUnreadable(const QStringList& problems);
    void drawCurves(const QString& metric, const RecordedCurves& recorded);
    void addCurveMetrics(const QStringList& metrics);

    QString folder_;
    RunHistoryModel* model_;
    QSortFilterProxyModel* sorted_;
    QLineEdit* filter_;
    QTableView* table_;
    QLabel* no_runs_;    // while the project has none
    QLabel* unreadable_; // names the run.db files that could not be read
    QComboBox* curve_metric_;
    QPushButton* compare_;
    QPushButton* resume_;
    QPushButton* export_;
    QPushButton* open_;
    QPushButton* remove_;
    QCustomPlot* curves_;
    QCPItemText* curves_hint_; // over the empty plot: how to fill it
    BackgroundJob job_;
    BackgroundJob curves_job_{this, QStringLiteral("run curves")};
    bool refresh_again_ = false; // asked while a read was running
};

} // namespace kiln::gui
