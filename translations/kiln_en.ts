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
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="31"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n core, no CUDA GPU</numerusform>
            <numerusform>CPU: %n cores, no CUDA GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="37"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n core, GPUs: %1</numerusform>
            <numerusform>CPU: %n cores, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="45"/>
        <location filename="../gui/app/main_window.cpp" line="334"/>
        <location filename="../gui/app/main_window.cpp" line="365"/>
        <source>Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="70"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="73"/>
        <source>&amp;New Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="75"/>
        <source>&amp;Open Project...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="79"/>
        <source>Open Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="79"/>
        <location filename="../gui/app/main_window.cpp" line="92"/>
        <location filename="../gui/app/main_window.cpp" line="273"/>
        <source>Kiln projects (*.kiln)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="84"/>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="86"/>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="88"/>
        <source>Save &amp;As...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="92"/>
        <source>Save Project As</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="100"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="103"/>
        <source>Add Dataset Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="108"/>
        <source>&amp;Export Embeddings...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="111"/>
        <source>&amp;Close Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="114"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="118"/>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="120"/>
        <source>&amp;Train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="122"/>
        <source>&amp;Embed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="124"/>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="128"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="131"/>
        <source>&amp;Datasets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="132"/>
        <source>Run &amp;Configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="133"/>
        <source>Live &amp;Plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="134"/>
        <source>Run &amp;History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="135"/>
        <source>&amp;Embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="147"/>
        <source>&amp;Full Screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="155"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="157"/>
        <source>&amp;About Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="160"/>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="172"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="174"/>
        <source>Pretrain backbones on your unlabelled images, watch where the time goes, and export embeddings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="192"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="195"/>
        <source>Add Dataset Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="198"/>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="216"/>
        <source>Datasets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="218"/>
        <source>Run History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="260"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="272"/>
        <source>Save Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="315"/>
        <source>Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="316"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="319"/>
        <source>Save them before going on?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="366"/>
        <source>%1[*] - Kiln Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="379"/>
        <source>%1 - %2 (missing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="380"/>
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
    <name>kiln::gui::RunHistoryModel</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="143"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="145"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="147"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="149"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="151"/>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="153"/>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="155"/>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="157"/>
        <source>Final loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="159"/>
        <source>Images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="161"/>
        <source>data_wait (median)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryView</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="176"/>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="179"/>
        <source>Open Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="182"/>
        <source>Delete Run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="224"/>
        <location filename="../gui/runs/run_history.cpp" line="236"/>
        <source>Delete Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="225"/>
        <source>Delete the run in %1 with its checkpoints, exported model and logs?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="237"/>
        <source>Some files in %1 could not be deleted; check their permissions.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
