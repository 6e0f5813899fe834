<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>kiln::gui::AugmentationPreview</name>
        <message numerus="yes">
            <location filename="../gui/datasets/augmentation_preview.cpp" line="118" />
            <source>%n view(s) of %1 as %2 makes them; click for new ones.</source>
            <translation>
                <numerusform>%n view of %1 as %2 makes them; click for new ones.</numerusform>
                <numerusform>%n views of %1 as %2 makes them; click for new ones.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::BackgroundJob</name>
        <message numerus="yes">
            <location filename="../gui/common/background_job.cpp" line="82" />
            <source>... and %n more warning(s).</source>
            <translation>
                <numerusform>... and %n more warning.</numerusform>
                <numerusform>... and %n more warnings.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::BarChart</name>
        <message numerus="yes">
            <location filename="../gui/common/bar_chart.cpp" line="27" />
            <source>%n more</source>
            <translation>
                <numerusform>%n more</numerusform>
                <numerusform>%n more</numerusform>
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
            <source>%n embedding(s)</source>
            <translation>
                <numerusform>%n embedding</numerusform>
                <numerusform>%n embeddings</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>in %n group(s) by top-level folder.</source>
            <translation>
                <numerusform>in %n group by top-level folder.</numerusform>
                <numerusform>in %n groups by top-level folder.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Picking %n image(s) to label...</source>
            <translation>
                <numerusform>Picking %n image to label...</numerusform>
                <numerusform>Picking %n images to label...</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n image(s) to label first (%1), highlighted</source>
            <translation>
                <numerusform>%n image to label first (%1), highlighted</numerusform>
                <numerusform>%n images to label first (%1), highlighted</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n image(s) were not copied (already there, or unreadable), the first %1</source>
            <translation>
                <numerusform>%n image was not copied (already there, or unreadable), the first %1</numerusform>
                <numerusform>%n images were not copied (already there, or unreadable), the first %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Copying %n image(s)...</source>
            <translation>
                <numerusform>Copying %n image...</numerusform>
                <numerusform>Copying %n images...</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Copied %n image(s) to %1</source>
            <translation>
                <numerusform>Copied %n image to %1</numerusform>
                <numerusform>Copied %n images to %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/embeddings/embeddings_view.cpp" line="305" />
            <source>%n point(s) selected</source>
            <translation>
                <numerusform>%n point selected</numerusform>
                <numerusform>%n points selected</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/embeddings/embeddings_view.cpp" line="339" />
            <source>Wrote %n name(s) to %1</source>
            <translation>
                <numerusform>Wrote %n name to %1</numerusform>
                <numerusform>Wrote %n names to %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::JobController</name>
        <message numerus="yes">
            <location filename="../gui/app/job_controller.cpp" line="129" />
            <source>Wrote %n embedding(s) of dimension %1 to %2.</source>
            <translation>
                <numerusform>Wrote %n embedding of dimension %1 to %2.</numerusform>
                <numerusform>Wrote %n embeddings of dimension %1 to %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/app/job_controller.cpp" line="134" />
            <source>%n unreadable image(s) were left out.</source>
            <translation>
                <numerusform>%n unreadable image was left out.</numerusform>
                <numerusform>%n unreadable images were left out.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::LivePlotsPage</name>
        <message numerus="yes">
            <source>and %n more (see train.log in the run's folder)</source>
            <translation>
                <numerusform>and %n more (see train.log in the run's folder)</numerusform>
                <numerusform>and %n more (see train.log in the run's folder)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>(%n times)</source>
            <translation>
                <numerusform>(once)</numerusform>
                <numerusform>(%n times)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/plots/live_plots_page.cpp" line="124" />
            <source>Finished after %n step(s).</source>
            <translation>
                <numerusform>Finished after %n step.</numerusform>
                <numerusform>Finished after %n steps.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/plots/live_plots_page.cpp" line="125" />
            <source>Stopped after %n step(s); it can be resumed.</source>
            <translation>
                <numerusform>Stopped after %n step; it can be resumed.</numerusform>
                <numerusform>Stopped after %n steps; it can be resumed.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::MainWindow</name>
        <message numerus="yes">
            <location filename="../gui/app/main_window.cpp" line="56" />
            <source>CPU: %n core(s), no CUDA GPU</source>
            <translation>
                <numerusform>CPU: %n core, no CUDA GPU</numerusform>
                <numerusform>CPU: %n cores, no CUDA GPU</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/app/main_window.cpp" line="62" />
            <source>CPU: %n core(s), GPUs: %1</source>
            <translation>
                <numerusform>CPU: %n core, GPUs: %1</numerusform>
                <numerusform>CPU: %n cores, GPUs: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::ModelCommands</name>
        <message numerus="yes">
            <location filename="../gui/app/model_commands.cpp" line="90" />
            <source>Predicted %n image(s) (%1) into %2.</source>
            <translation>
                <numerusform>Predicted %n image (%1) into %2.</numerusform>
                <numerusform>Predicted %n images (%1) into %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/app/model_commands.cpp" line="94" />
            <source>%n unreadable image(s) were left out.</source>
            <translation>
                <numerusform>%n unreadable image was left out.</numerusform>
                <numerusform>%n unreadable images were left out.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::OptimizeDatasetDialog</name>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="135" />
            <source>%n file(s), %1; the copy: about %2 (estimated from %3 of them).</source>
            <translation>
                <numerusform>%n file, %1; the copy: about %2 (estimated from %3 of them).</numerusform>
                <numerusform>%n files, %1; the copy: about %2 (estimated from %3 of them).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="193" />
            <source>Stopped after %n image(s).</source>
            <translation>
                <numerusform>Stopped after %n image.</numerusform>
                <numerusform>Stopped after %n images.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="195" />
            <source>Wrote %n image(s): %1 became %2.</source>
            <translation>
                <numerusform>Wrote %n image: %1 became %2.</numerusform>
                <numerusform>Wrote %n images: %1 became %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/datasets/optimize_dialog.cpp" line="200" />
            <source>%n unreadable file(s) skipped.</source>
            <translation>
                <numerusform>%n unreadable file skipped.</numerusform>
                <numerusform>%n unreadable files skipped.</numerusform>
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
            <source>and %n more</source>
            <translation>
                <numerusform>and %n more</numerusform>
                <numerusform>and %n more</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::RunHistoryModel</name>
        <message numerus="yes">
            <location filename="../gui/runs/run_history.cpp" line="95" />
            <source>%n step(s)</source>
            <translation>
                <numerusform>%n step</numerusform>
                <numerusform>%n steps</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../gui/runs/run_history.cpp" line="97" />
            <source>%n epoch(s)</source>
            <translation>
                <numerusform>%n epoch</numerusform>
                <numerusform>%n epochs</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::PredictionTileModel</name>
        <message numerus="yes">
            <source>%n found</source>
            <translation>
                <numerusform>%n found</numerusform>
                <numerusform>%n found</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n labelled</source>
            <translation>
                <numerusform>%n labelled</numerusform>
                <numerusform>%n labelled</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::RunHistoryView</name>
        <message numerus="yes">
            <source>%n run database(s) could not be read, so their runs are not listed: %1</source>
            <translation>
                <numerusform>%n run database could not be read, so its runs are not listed: %1</numerusform>
                <numerusform>%n run databases could not be read, so their runs are not listed: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>kiln::gui::RunEstimate</name>
        <message numerus="yes">
            <source>Memory: a training step of %n sample(s) needs %1 to %2 on the CPU; %3 free.</source>
            <translation>
                <numerusform>Memory: a training step of %n sample needs %1 to %2 on the CPU; %3 free.</numerusform>
                <numerusform>Memory: a training step of %n samples needs %1 to %2 on the CPU; %3 free.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n minute(s)</source>
            <translation>
                <numerusform>%n minute</numerusform>
                <numerusform>%n minutes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n day(s)</source>
            <translation>
                <numerusform>%n day</numerusform>
                <numerusform>%n days</numerusform>
            </translation>
        </message>
    </context>
</TS>
