<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>kiln::gui::AboutDialog</name>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="13"/>
        <source>About Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="26"/>
        <source>A desktop workstation for self-supervised pretraining and embedding of image datasets, on CPUs and GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="42"/>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::AugmentationPreview</name>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="25"/>
        <source>Click for new random views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="86"/>
        <source>No readable image in this dataset to preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="87"/>
        <source>%1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="106"/>
        <source>%1 x %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/augmentation_preview.cpp" line="109"/>
        <source>%n view(s) of %1 as %2 makes them; click for new ones.</source>
        <translation>
            <numerusform>%n view of %1 as %2 makes them; click for new ones.</numerusform>
            <numerusform>%n views of %1 as %2 makes them; click for new ones.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::ExportEmbeddingsDialog</name>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="40"/>
        <source>Export Embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="48"/>
        <source>%1 (%2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="52"/>
        <source>Browse...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="54"/>
        <location filename="../gui/embeddings/export_dialog.cpp" line="85"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="55"/>
        <source>Kiln models (*.pt *.ckpt *.pth)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="76"/>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="86"/>
        <source>Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="87"/>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="88"/>
        <source>Image size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="89"/>
        <source>Write to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="91"/>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="123"/>
        <source>embeddings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::LivePlots</name>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="41"/>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="41"/>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="41"/>
        <source>learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="43"/>
        <source>data_wait (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="43"/>
        <source>data_wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="44"/>
        <source>CPU utilisation (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="45"/>
        <source>system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="45"/>
        <source>this process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="46"/>
        <source>GPU utilisation (%) and memory (MB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="47"/>
        <source>Images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="47"/>
        <source>images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="53"/>
        <source>best</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="63"/>
        <source>No GPU in this run: nothing to show here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="90"/>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="160"/>
        <source>GPU %1 utilisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="164"/>
        <source>GPU %1 memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="198"/>
        <source>step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="200"/>
        <source>%1: loss %2, learning rate %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="206"/>
        <source>%1: data_wait %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="209"/>
        <source>%1: CPU %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="212"/>
        <source>%1: %2 images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="219"/>
        <source>GPU %1 %2%, %3 MB</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="46"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n core, no CUDA GPU</numerusform>
            <numerusform>CPU: %n cores, no CUDA GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="52"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n core, GPUs: %1</numerusform>
            <numerusform>CPU: %n cores, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="62"/>
        <location filename="../gui/app/main_window.cpp" line="644"/>
        <location filename="../gui/app/main_window.cpp" line="653"/>
        <location filename="../gui/app/main_window.cpp" line="684"/>
        <source>Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="80"/>
        <source>The training stopped with an error:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="88"/>
        <source>embedding: batch %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="93"/>
        <source>Wrote %n embedding(s) of dimension %1 to %2.</source>
        <translation>
            <numerusform>Wrote %n embedding of dimension %1 to %2.</numerusform>
            <numerusform>Wrote %n embeddings of dimension %1 to %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="98"/>
        <source>%n unreadable image(s) were left out.</source>
        <translation>
            <numerusform>%n unreadable image was left out.</numerusform>
            <numerusform>%n unreadable images were left out.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="106"/>
        <source>The embedding stopped with an error:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="125"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="128"/>
        <source>&amp;New Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="130"/>
        <source>&amp;Open Project...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="134"/>
        <source>Open Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="134"/>
        <location filename="../gui/app/main_window.cpp" line="147"/>
        <location filename="../gui/app/main_window.cpp" line="584"/>
        <source>Kiln projects (*.kiln)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="139"/>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="141"/>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="143"/>
        <source>Save &amp;As...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="147"/>
        <source>Save Project As</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="155"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="158"/>
        <source>Add Dataset Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="163"/>
        <source>&amp;Export Embeddings...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="166"/>
        <source>&amp;Close Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="169"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="173"/>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="175"/>
        <source>&amp;Train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="178"/>
        <source>&amp;Embed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="180"/>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="184"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="187"/>
        <source>&amp;Datasets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="188"/>
        <source>Run &amp;Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="189"/>
        <source>Live &amp;Plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="190"/>
        <source>Run &amp;History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="191"/>
        <source>&amp;Embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="205"/>
        <source>&amp;Full Screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="213"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="215"/>
        <source>&amp;About Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="218"/>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="230"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="232"/>
        <source>Pretrain backbones on your unlabelled images, watch where the time goes, and export embeddings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="250"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="253"/>
        <source>Add Dataset Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="256"/>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="277"/>
        <source>&lt;b&gt;Augmentation preview&lt;/b&gt; (the method of the Run Configuration)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="320"/>
        <source>Datasets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="322"/>
        <source>Run Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="332"/>
        <source>Live Plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="334"/>
        <source>Run History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="351"/>
        <source>Save the project first: its runs are written beside it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="384"/>
        <source>starting...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="395"/>
        <source>Save the project first: the embeddings are written beside it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="403"/>
        <source>embedding...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="428"/>
        <source>This run cannot be resumed:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="439"/>
        <source>epoch %1/%2, step %3/%4, loss %5, data_wait %6%, ETA %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="452"/>
        <source>Finished after %n step(s).</source>
        <translation>
            <numerusform>Finished after %n step.</numerusform>
            <numerusform>Finished after %n steps.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="453"/>
        <source>Stopped after %n step(s); it can be resumed.</source>
        <translation>
            <numerusform>Stopped after %n step; it can be resumed.</numerusform>
            <numerusform>Stopped after %n steps; it can be resumed.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="481"/>
        <source>Scanning %1...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="498"/>
        <source>under 256 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="498"/>
        <source>256-511 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="498"/>
        <source>512-1023 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="499"/>
        <source>1024-2047 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="499"/>
        <source>2048 px and more</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="504"/>
        <source>%n readable image(s), %1</source>
        <translation>
            <numerusform>%n readable image, %1</numerusform>
            <numerusform>%n readable images, %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="506"/>
        <source>Formats: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="507"/>
        <source>Longest side: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="509"/>
        <source>%n unreadable file(s), left out of training:</source>
        <translation>
            <numerusform>%n unreadable file, left out of training:</numerusform>
            <numerusform>%n unreadable files, left out of training:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="571"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="583"/>
        <source>Save Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="626"/>
        <source>Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="627"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="630"/>
        <source>Save them before going on?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="685"/>
        <source>%1[*] - Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="698"/>
        <source>%1 - %2 (missing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="699"/>
        <source>%1 - %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::Project</name>
    <message>
        <location filename="../gui/project/project.cpp" line="14"/>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="27"/>
        <source>Cannot open %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="32"/>
        <source>%1 is not a Kiln project: %2 at byte %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="37"/>
        <source>%1 is not a Kiln project: it holds no JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="44"/>
        <source>%1 is not a Kiln project: it has no valid format_version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="48"/>
        <source>%1 was saved by a newer Kiln Studio (project format %2; this version reads up to %3). Update Kiln Studio to open it; the file is left as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="62"/>
        <source>%1: dataset %2 has no path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="97"/>
        <source>Cannot save %1: %2. The previous file, if any, is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunConfigForm</name>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="62"/>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="66"/>
        <source>TensorBoard event files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="71"/>
        <source>off; a folder or http(s):// server to log to MLflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="74"/>
        <source>a new folder in the project&apos;s runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="77"/>
        <source>Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="78"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="79"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="80"/>
        <source>Epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="81"/>
        <source>Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="82"/>
        <source>Image size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="83"/>
        <source>Accelerator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="84"/>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="85"/>
        <source>Loader workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="86"/>
        <source>Loggers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="87"/>
        <source>MLflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="88"/>
        <source>Output folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="89"/>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="136"/>
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="137"/>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="140"/>
        <source>CUDA %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="144"/>
        <source>CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="148"/>
        <source>No CUDA GPU is visible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="149"/>
        <source>This Kiln&apos;s LibTorch has no CUDA.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="168"/>
        <source>float16 needs a CUDA GPU; on the CPU use the bf16 precisions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="178"/>
        <source>auto (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryModel</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="144"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="146"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="148"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="150"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="152"/>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="154"/>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="156"/>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="158"/>
        <source>Final loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="160"/>
        <source>Images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="162"/>
        <source>data_wait (median)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryView</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="177"/>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="180"/>
        <source>Open Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="183"/>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="185"/>
        <source>Continue an interrupted or stopped run from its last checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="187"/>
        <source>Delete Run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="248"/>
        <location filename="../gui/runs/run_history.cpp" line="260"/>
        <source>Delete Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="249"/>
        <source>Delete the run in %1 with its checkpoints, exported model and logs?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="261"/>
        <source>Some files in %1 could not be deleted; check their permissions.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
