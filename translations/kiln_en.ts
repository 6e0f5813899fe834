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
        <location filename="../gui/datasets/augmentation_preview.cpp" line="26"/>
        <source>Click for new random views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="89"/>
        <source>No readable image in this dataset to preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="90"/>
        <source>%1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="109"/>
        <source>%1 x %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/augmentation_preview.cpp" line="112"/>
        <source>%n view(s) of %1 as %2 makes them; click for new ones.</source>
        <translation>
            <numerusform>%n view of %1 as %2 makes them; click for new ones.</numerusform>
            <numerusform>%n views of %1 as %2 makes them; click for new ones.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::EmbeddingsView</name>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="41"/>
        <source>first principal component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="42"/>
        <source>second principal component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="48"/>
        <source>Export embeddings (File menu) or open an embeddings file to see them here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="54"/>
        <source>&lt;b&gt;Nearest neighbours&lt;/b&gt; (click a point)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="73"/>
        <source>Loading and projecting %1...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="125"/>
        <source>(top folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="132"/>
        <source>neighbours</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="141"/>
        <source>%n embedding(s) in %1 group(s) by top-level folder.</source>
        <translation>
            <numerusform>%n embedding in %1 group(s) by top-level folder.</numerusform>
            <numerusform>%n embeddings in %1 group(s) by top-level folder.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="197"/>
        <source>%1 (selected)</source>
        <translation type="unfinished"></translation>
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
        <location filename="../gui/plots/live_plots.cpp" line="37"/>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="37"/>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="37"/>
        <source>learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="39"/>
        <source>data_wait (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="39"/>
        <source>data_wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="40"/>
        <source>CPU utilisation (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="41"/>
        <source>system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="41"/>
        <source>this process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="42"/>
        <source>GPU utilisation (%) and memory (MB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="43"/>
        <source>Images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="43"/>
        <source>images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="49"/>
        <source>best</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="59"/>
        <source>No GPU in this run: nothing to show here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="64"/>
        <source>Over time instead of steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="90"/>
        <location filename="../gui/plots/live_plots.cpp" line="107"/>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="107"/>
        <source>seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="174"/>
        <source>GPU %1 utilisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="178"/>
        <source>GPU %1 memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="212"/>
        <source>step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="214"/>
        <source>%1: loss %2, learning rate %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="220"/>
        <source>%1: data_wait %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="223"/>
        <source>%1: CPU %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="226"/>
        <source>%1: %2 images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="235"/>
        <source>GPU %1 %2, %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="237"/>
        <location filename="../gui/plots/live_plots.cpp" line="239"/>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <source>Predicted %n image(s) (%1) into %2.</source>
        <translation>
            <numerusform>Predicted %n image (%1) into %2.</numerusform>
            <numerusform>Predicted %n images (%1) into %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="53"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n core, no CUDA GPU</numerusform>
            <numerusform>CPU: %n cores, no CUDA GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="59"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n core, GPUs: %1</numerusform>
            <numerusform>CPU: %n cores, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="69"/>
        <location filename="../gui/app/main_window.cpp" line="764"/>
        <location filename="../gui/app/main_window.cpp" line="773"/>
        <location filename="../gui/app/main_window.cpp" line="804"/>
        <source>Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="87"/>
        <source>The training stopped with an error:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="95"/>
        <source>embedding: batch %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="100"/>
        <source>Wrote %n embedding(s) of dimension %1 to %2.</source>
        <translation>
            <numerusform>Wrote %n embedding of dimension %1 to %2.</numerusform>
            <numerusform>Wrote %n embeddings of dimension %1 to %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="105"/>
        <source>%n unreadable image(s) were left out.</source>
        <translation>
            <numerusform>%n unreadable image was left out.</numerusform>
            <numerusform>%n unreadable images were left out.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="114"/>
        <source>The embedding stopped with an error:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="133"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="136"/>
        <source>&amp;New Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="138"/>
        <source>&amp;Open Project...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="142"/>
        <source>Open Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="142"/>
        <location filename="../gui/app/main_window.cpp" line="155"/>
        <location filename="../gui/app/main_window.cpp" line="704"/>
        <source>Kiln projects (*.kiln)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="147"/>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="149"/>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="151"/>
        <source>Save &amp;As...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="155"/>
        <source>Save Project As</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="163"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="166"/>
        <source>Add Dataset Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="171"/>
        <source>&amp;Export Embeddings...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="174"/>
        <source>&amp;Close Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="177"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="181"/>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="184"/>
        <source>&amp;Preferences...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="191"/>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="193"/>
        <source>&amp;Train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="197"/>
        <source>&amp;Embed...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="200"/>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="205"/>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="221"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="224"/>
        <source>&amp;Datasets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="225"/>
        <source>Run &amp;Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="226"/>
        <source>Live &amp;Plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="227"/>
        <source>Run &amp;History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="228"/>
        <source>&amp;Embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="243"/>
        <source>&amp;Full Screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="251"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="253"/>
        <source>&amp;About Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="256"/>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="268"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="270"/>
        <source>Pretrain backbones on your unlabelled images, watch where the time goes, and export embeddings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="288"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="291"/>
        <source>Add Dataset Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="294"/>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="301"/>
        <source>Optimize...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="303"/>
        <source>Re-encode the selected dataset as JPEG or WebP at training size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="320"/>
        <source>&lt;b&gt;Augmentation preview&lt;/b&gt; (the method of the Run Configuration)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="378"/>
        <source>Datasets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="380"/>
        <source>Run Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="387"/>
        <source>Optimize Dataset...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="396"/>
        <source>Live Plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="398"/>
        <source>Run History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="402"/>
        <source>Open Embeddings File...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="406"/>
        <source>Open Embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="407"/>
        <source>Embeddings (*.csv *.pt *.npy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="415"/>
        <source>Embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="431"/>
        <source>Save the project first: its runs are written beside it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="467"/>
        <source>starting...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="478"/>
        <source>Save the project first: the embeddings are written beside it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="486"/>
        <source>embedding...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="511"/>
        <source>This run cannot be resumed:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="522"/>
        <source>epoch %1/%2, step %3/%4, loss %5, data_wait %6%, ETA %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="556"/>
        <source>Finished after %n step(s).</source>
        <translation>
            <numerusform>Finished after %n step.</numerusform>
            <numerusform>Finished after %n steps.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="557"/>
        <source>Stopped after %n step(s); it can be resumed.</source>
        <translation>
            <numerusform>Stopped after %n step; it can be resumed.</numerusform>
            <numerusform>Stopped after %n steps; it can be resumed.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="597"/>
        <source>Scanning %1...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="618"/>
        <source>under 256 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="618"/>
        <source>256-511 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="618"/>
        <source>512-1023 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="619"/>
        <source>1024-2047 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="619"/>
        <source>2048 px and more</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="624"/>
        <source>%n readable image(s), %1</source>
        <translation>
            <numerusform>%n readable image, %1</numerusform>
            <numerusform>%n readable images, %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="626"/>
        <source>Formats: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="627"/>
        <source>Longest side: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="629"/>
        <source>%n unreadable file(s), left out of training:</source>
        <translation>
            <numerusform>%n unreadable file, left out of training:</numerusform>
            <numerusform>%n unreadable files, left out of training:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="691"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="703"/>
        <source>Save Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="746"/>
        <source>Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="747"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="750"/>
        <source>Save them before going on?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="805"/>
        <source>%1[*] - Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="818"/>
        <source>%1 - %2 (missing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="819"/>
        <source>%1 - %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::OptimizeDatasetDialog</name>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp"/>
        <source>%n file(s), %1; the copy: about %2 (estimated from %3 of them).</source>
        <translation>
            <numerusform>%n file, %1; the copy: about %2 (estimated from %3 of them).</numerusform>
            <numerusform>%n files, %1; the copy: about %2 (estimated from %3 of them).</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="23"/>
        <source>Optimize Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="32"/>
        <source>keep the size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="33"/>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="39"/>
        <source>Decoding PNG and large images costs CPU in every epoch; JPEG or WebP at the training resolution costs far less.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="45"/>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="46"/>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="47"/>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="48"/>
        <source>Longest side at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="49"/>
        <source>Quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="51"/>
        <source>Optimize</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="92"/>
        <source>Optimizing...</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="107"/>
        <source>Stopped after %n image(s).</source>
        <translation>
            <numerusform>Stopped after %n image.</numerusform>
            <numerusform>Stopped after %n images.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="109"/>
        <source>Wrote %n image(s): %1 became %2.</source>
        <translation>
            <numerusform>Wrote %n image: %1 became %2.</numerusform>
            <numerusform>Wrote %n images: %1 became %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="114"/>
        <source>%n unreadable file(s) skipped.</source>
        <translation>
            <numerusform>%n unreadable file skipped.</numerusform>
            <numerusform>%n unreadable files skipped.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::PreferencesDialog</name>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="50"/>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="53"/>
        <location filename="../gui/app/preferences_dialog.cpp" line="59"/>
        <source>As the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="60"/>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="61"/>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="67"/>
        <source>A new language applies when Kiln Studio starts again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="70"/>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="71"/>
        <source>Theme</source>
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
        <location filename="../gui/training/run_config_form.cpp" line="69"/>
        <source>Batch-norm statistics over all devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="71"/>
        <source>TensorBoard event files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="76"/>
        <source>off; a folder or http(s):// server to log to MLflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="79"/>
        <source>a new folder in the project&apos;s runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="82"/>
        <source>Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="83"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="84"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="85"/>
        <source>Epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="86"/>
        <source>Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="87"/>
        <source>Image size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="88"/>
        <source>Accelerator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="89"/>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="90"/>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="91"/>
        <source>Sync batch norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="92"/>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="93"/>
        <source>Loader workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="94"/>
        <source>Loggers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="95"/>
        <source>MLflow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="96"/>
        <source>Output folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="97"/>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="67"/>
        <location filename="../gui/training/run_config_form.cpp" line="144"/>
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="145"/>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="148"/>
        <source>CUDA %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="152"/>
        <source>CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="156"/>
        <source>No CUDA GPU is visible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="157"/>
        <source>This Kiln&apos;s LibTorch has no CUDA.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="176"/>
        <source>float16 needs a CUDA GPU; on the CPU use the bf16 precisions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="186"/>
        <source>auto (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryModel</name>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp"/>
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp"/>
        <source>%n epoch(s)</source>
        <translation>
            <numerusform>%n epoch</numerusform>
            <numerusform>%n epochs</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="145"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="147"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="149"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="151"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="153"/>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="155"/>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="157"/>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="159"/>
        <source>Final loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="161"/>
        <source>Images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="163"/>
        <source>data_wait (median)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryView</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="179"/>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="182"/>
        <source>Open Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="185"/>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="187"/>
        <source>Continue an interrupted or stopped run from its last checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="189"/>
        <source>Delete Run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="201"/>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="202"/>
        <source>train_loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="317"/>
        <location filename="../gui/runs/run_history.cpp" line="329"/>
        <source>Delete Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="318"/>
        <source>Delete the run in %1 with its checkpoints, exported model and logs?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="330"/>
        <source>Some files in %1 could not be deleted; check their permissions.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
