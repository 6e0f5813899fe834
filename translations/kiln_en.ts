<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>kiln::gui::AugmentationPreview</name>
        <message numerus="yes">
            <location filename="../gui/datasets/augmentation_preview.cpp" line="118" />
            <source>%Ln view(s) of %1 as %2 makes them; click for new ones.</source>
            <translation>
                <numerusform>%Ln view of %1 as %2 makes them; click for new ones.</numerusform>
                <numerusform>%Ln views of %1 as %2 makes them; click for new ones.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::BackgroundJob</name>
        <message numerus="yes">
            <location filename="../gui/common/background_job.cpp" line="82" />
            <source>... and %Ln more warning(s).</source>
            <translation>
                <numerusform>... and %Ln more warning.</numerusform>
                <numerusform>... and %Ln more warnings.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::BarChart</name>
        <message numerus="yes">
            <location filename="../gui/common/bar_chart.cpp" line="27" />
            <source>%Ln more</source>
            <translation>
                <numerusform>%Ln more</numerusform>
                <numerusform>%Ln more</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::DatasetsPage</name>
        <message numerus="yes">
            <location filename="../gui/datasets/datasets_page.cpp" line="368" />
            <source>%Ln readable image(s), %1</source>
            <translation>
                <numerusform>%Ln readable image, %1</numerusform>
                <numerusform>%Ln readable images, %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/datasets_page.cpp" line="372" />
            <source>%Ln unreadable file(s), left out of training:</source>
            <translation>
                <numerusform>%Ln unreadable file, left out of training:</numerusform>
                <numerusform>%Ln unreadable files, left out of training:</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/datasets_page.cpp" line="456" />
            <source>%Ln problem(s) with the labels, listed below; training refuses the dataset until they are fixed.</source>
            <translation>
                <numerusform>%Ln problem with the labels, listed below; training refuses the dataset until they are fixed.</numerusform>
                <numerusform>%Ln problems with the labels, listed below; training refuses the dataset until they are fixed.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::EmbeddingsView</name>
        <message numerus="yes">
            <source>%Ln other folder(s)</source>
            <translation>
                <numerusform>%Ln other folder</numerusform>
                <numerusform>%Ln other folders</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln embedding(s)</source>
            <translation>
                <numerusform>%Ln embedding</numerusform>
                <numerusform>%Ln embeddings</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>in %Ln group(s) by top-level folder.</source>
            <translation>
                <numerusform>in %Ln group by top-level folder.</numerusform>
                <numerusform>in %Ln groups by top-level folder.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Picking %Ln image(s) to label...</source>
            <translation>
                <numerusform>Picking %Ln image to label...</numerusform>
                <numerusform>Picking %Ln images to label...</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln image(s) to label first (%1), highlighted</source>
            <translation>
                <numerusform>%Ln image to label first (%1), highlighted</numerusform>
                <numerusform>%Ln images to label first (%1), highlighted</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln image(s) were not copied (already there, or unreadable), the first %1</source>
            <translation>
                <numerusform>%Ln image was not copied (already there, or unreadable), the first %1</numerusform>
                <numerusform>%Ln images were not copied (already there, or unreadable), the first %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Copying %Ln image(s)...</source>
            <translation>
                <numerusform>Copying %Ln image...</numerusform>
                <numerusform>Copying %Ln images...</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Copied %Ln image(s) to %1</source>
            <translation>
                <numerusform>Copied %Ln image to %1</numerusform>
                <numerusform>Copied %Ln images to %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/embeddings/embeddings_view.cpp" line="305" />
            <source>%Ln point(s) selected</source>
            <translation>
                <numerusform>%Ln point selected</numerusform>
                <numerusform>%Ln points selected</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/embeddings/embeddings_view.cpp" line="339" />
            <source>Wrote %Ln name(s) to %1</source>
            <translation>
                <numerusform>Wrote %Ln name to %1</numerusform>
                <numerusform>Wrote %Ln names to %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::JobController</name>
        <message numerus="yes">
            <location filename="../gui/app/job_controller.cpp" line="129" />
            <source>Wrote %Ln embedding(s) of dimension %1 to %2.</source>
            <translation>
                <numerusform>Wrote %Ln embedding of dimension %1 to %2.</numerusform>
                <numerusform>Wrote %Ln embeddings of dimension %1 to %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/app/job_controller.cpp" line="134" />
            <source>%Ln unreadable image(s) were left out.</source>
            <translation>
                <numerusform>%Ln unreadable image was left out.</numerusform>
                <numerusform>%Ln unreadable images were left out.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::LivePlotsPage</name>
        <message numerus="yes">
            <source>and %Ln more (see train.log in the run's folder)</source>
            <translation>
                <numerusform>and %Ln more (see train.log in the run's folder)</numerusform>
                <numerusform>and %Ln more (see train.log in the run's folder)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>(%Ln times)</source>
            <translation>
                <numerusform>(once)</numerusform>
                <numerusform>(%Ln times)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/plots/live_plots_page.cpp" line="124" />
            <source>Finished after %Ln step(s).</source>
            <translation>
                <numerusform>Finished after %Ln step.</numerusform>
                <numerusform>Finished after %Ln steps.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/plots/live_plots_page.cpp" line="125" />
            <source>Stopped after %Ln step(s); it can be resumed.</source>
            <translation>
                <numerusform>Stopped after %Ln step; it can be resumed.</numerusform>
                <numerusform>Stopped after %Ln steps; it can be resumed.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::MainWindow</name>
        <message numerus="yes">
            <location filename="../gui/app/main_window.cpp" line="56" />
            <source>CPU: %Ln core(s), no CUDA GPU</source>
            <translation>
                <numerusform>CPU: %Ln core, no CUDA GPU</numerusform>
                <numerusform>CPU: %Ln cores, no CUDA GPU</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/app/main_window.cpp" line="62" />
            <source>CPU: %Ln core(s), GPUs: %1</source>
            <translation>
                <numerusform>CPU: %Ln core, GPUs: %1</numerusform>
                <numerusform>CPU: %Ln cores, GPUs: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::ModelCommands</name>
        <message numerus="yes">
            <location filename="../gui/app/model_commands.cpp" line="90" />
            <source>Predicted %Ln image(s) (%1) into %2.</source>
            <translation>
                <numerusform>Predicted %Ln image (%1) into %2.</numerusform>
                <numerusform>Predicted %Ln images (%1) into %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/app/model_commands.cpp" line="94" />
            <source>%Ln unreadable image(s) were left out.</source>
            <translation>
                <numerusform>%Ln unreadable image was left out.</numerusform>
                <numerusform>%Ln unreadable images were left out.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::OptimizeDatasetDialog</name>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="135" />
            <source>%Ln file(s), %1; the copy: about %2 (estimated from %3 of them).</source>
            <translation>
                <numerusform>%Ln file, %1; the copy: about %2 (estimated from %3 of them).</numerusform>
                <numerusform>%Ln files, %1; the copy: about %2 (estimated from %3 of them).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="193" />
            <source>Stopped after %Ln image(s).</source>
            <translation>
                <numerusform>Stopped after %Ln image.</numerusform>
                <numerusform>Stopped after %Ln images.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="195" />
            <source>Wrote %Ln image(s): %1 became %2.</source>
            <translation>
                <numerusform>Wrote %Ln image: %1 became %2.</numerusform>
                <numerusform>Wrote %Ln images: %1 became %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="200" />
            <source>%Ln unreadable file(s) skipped.</source>
            <translation>
                <numerusform>%Ln unreadable file skipped.</numerusform>
                <numerusform>%Ln unreadable files skipped.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::PredictionPreviewsView</name>
        <message numerus="yes">
            <location filename="../gui/plots/prediction_previews.cpp" line="228" />
            <source>%1
%Ln object(s), </source>
            <translation>
                <numerusform>%1
%Ln object, </numerusform>
                <numerusform>%1
%Ln objects, </numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/plots/prediction_previews.cpp" line="229" />
            <source>%Ln box(es) shown</source>
            <translation>
                <numerusform>%Ln box shown</numerusform>
                <numerusform>%Ln boxes shown</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::ProjectController</name>
        <message numerus="yes">
            <location filename="../gui/app/project_controller.cpp" line="84" />
            <source>and %Ln more</source>
            <translation>
                <numerusform>and %Ln more</numerusform>
                <numerusform>and %Ln more</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/app/project_controller.cpp" line="178" />
            <source>Added %Ln dataset(s): %1</source>
            <translation>
                <numerusform>Added %Ln dataset: %1</numerusform>
                <numerusform>Added %Ln datasets: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::RunHistoryModel</name>
        <message numerus="yes">
            <location filename="../gui/runs/run_history.cpp" line="95" />
            <source>%Ln step(s)</source>
            <translation>
                <numerusform>%Ln step</numerusform>
                <numerusform>%Ln steps</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/runs/run_history.cpp" line="97" />
            <source>%Ln epoch(s)</source>
            <translation>
                <numerusform>%Ln epoch</numerusform>
                <numerusform>%Ln epochs</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::PredictionTileModel</name>
        <message numerus="yes">
            <source>%Ln found</source>
            <translation>
                <numerusform>%Ln found</numerusform>
                <numerusform>%Ln found</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln labelled</source>
            <translation>
                <numerusform>%Ln labelled</numerusform>
                <numerusform>%Ln labelled</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::RunHistoryView</name>
        <message numerus="yes">
            <source>%Ln run database(s) could not be read, so their runs are not listed: %1</source>
            <translation>
                <numerusform>%Ln run database could not be read, so its runs are not listed: %1</numerusform>
                <numerusform>%Ln run databases could not be read, so their runs are not listed: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::RunEstimate</name>
        <message numerus="yes">
            <source>Memory: a training step of %Ln sample(s) needs %1 to %2 on the CPU; %3 free.</source>
            <translation>
                <numerusform>Memory: a training step of %Ln sample needs %1 to %2 on the CPU; %3 free.</numerusform>
                <numerusform>Memory: a training step of %Ln samples needs %1 to %2 on the CPU; %3 free.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln minute(s)</source>
            <translation>
                <numerusform>%Ln minute</numerusform>
                <numerusform>%Ln minutes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln day(s)</source>
            <translation>
                <numerusform>%Ln day</numerusform>
                <numerusform>%Ln days</numerusform>
            </translation>
        </message>
    </context>
</TS>
