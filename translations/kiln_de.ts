<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>kiln::gui::AboutDialog</name>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="13"/>
        <source>About Kiln Studio</source>
        <translation>Über Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="26"/>
        <source>A desktop workstation for self-supervised pretraining and embedding of image datasets, on CPUs and GPUs.</source>
        <translation>Eine Desktop-Arbeitsstation für selbstüberwachtes Vortraining und Einbettung von Bilddatensätzen, auf CPUs und GPUs.</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="42"/>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>Lizenziert unter der GNU General Public License, Version 3 oder neuer.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="29"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n Kern, keine CUDA-GPU</numerusform>
            <numerusform>CPU: %n Kerne, keine CUDA-GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="35"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n Kern, GPUs: %1</numerusform>
            <numerusform>CPU: %n Kerne, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="43"/>
        <location filename="../gui/app/main_window.cpp" line="316"/>
        <location filename="../gui/app/main_window.cpp" line="347"/>
        <source>Kiln Studio</source>
        <translation>Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="68"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="71"/>
        <source>&amp;New Project</source>
        <translation>&amp;Neues Projekt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="73"/>
        <source>&amp;Open Project...</source>
        <translation>Projekt ö&amp;ffnen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="77"/>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="77"/>
        <location filename="../gui/app/main_window.cpp" line="90"/>
        <location filename="../gui/app/main_window.cpp" line="256"/>
        <source>Kiln projects (*.kiln)</source>
        <translation>Kiln-Projekte (*.kiln)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="82"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="84"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="86"/>
        <source>Save &amp;As...</source>
        <translation>Speichern &amp;unter...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="90"/>
        <source>Save Project As</source>
        <translation>Projekt speichern unter</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="98"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation>Daten&amp;satzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="101"/>
        <source>Add Dataset Folder</source>
        <translation>Datensatzordner hinzufügen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="106"/>
        <source>&amp;Export Embeddings...</source>
        <translation>Einbettungen &amp;exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="109"/>
        <source>&amp;Close Project</source>
        <translation>Projekt s&amp;chließen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="112"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="116"/>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="118"/>
        <source>&amp;Train</source>
        <translation>&amp;Trainieren</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="120"/>
        <source>&amp;Embed</source>
        <translation>&amp;Einbetten</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="122"/>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="126"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="129"/>
        <source>&amp;Datasets</source>
        <translation>&amp;Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="130"/>
        <source>Run &amp;Configuration</source>
        <translation>Lauf&amp;konfiguration</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="131"/>
        <source>Live &amp;Plots</source>
        <translation>Live-&amp;Diagramme</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="132"/>
        <source>Run &amp;History</source>
        <translation>Lauf&amp;verlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="133"/>
        <source>&amp;Embeddings</source>
        <translation>&amp;Einbettungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="137"/>
        <source>&amp;Full Screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="145"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="147"/>
        <source>&amp;About Kiln Studio</source>
        <translation>Ü&amp;ber Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="150"/>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="162"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="164"/>
        <source>Pretrain backbones on your unlabelled images, watch where the time goes, and export embeddings.</source>
        <translation>Trainieren Sie Backbones auf Ihren unbeschrifteten Bildern vor, sehen Sie, wohin die Zeit geht, und exportieren Sie Einbettungen.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="182"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Datensätze&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="185"/>
        <source>Add Dataset Folder...</source>
        <translation>Datensatzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="188"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="243"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation>Diese Datensatzordner des Projekts fehlen; schließen Sie das Laufwerk wieder an oder entfernen Sie sie aus dem Projekt:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="255"/>
        <source>Save Project</source>
        <translation>Projekt speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="297"/>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="298"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation>Das Projekt „%1“ hat ungespeicherte Änderungen.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="301"/>
        <source>Save them before going on?</source>
        <translation>Vor dem Fortfahren speichern?</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="348"/>
        <source>%1[*] - Kiln Studio</source>
        <translation>%1[*] - Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="361"/>
        <source>%1 - %2 (missing)</source>
        <translation>%1 - %2 (fehlt)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="362"/>
        <source>%1 - %2</source>
        <translation>%1 - %2</translation>
    </message>
</context>
<context>
    <name>kiln::gui::Project</name>
    <message>
        <location filename="../gui/project/project.cpp" line="14"/>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="27"/>
        <source>Cannot open %1: %2.</source>
        <translation>%1 kann nicht geöffnet werden: %2.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="32"/>
        <source>%1 is not a Kiln project: %2 at byte %3.</source>
        <translation>%1 ist kein Kiln-Projekt: %2 bei Byte %3.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="37"/>
        <source>%1 is not a Kiln project: it holds no JSON object.</source>
        <translation>%1 ist kein Kiln-Projekt: Es enthält kein JSON-Objekt.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="44"/>
        <source>%1 is not a Kiln project: it has no valid format_version.</source>
        <translation>%1 ist kein Kiln-Projekt: Es hat keine gültige format_version.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="48"/>
        <source>%1 was saved by a newer Kiln Studio (project format %2; this version reads up to %3). Update Kiln Studio to open it; the file is left as it is.</source>
        <translation>%1 wurde mit einem neueren Kiln Studio gespeichert (Projektformat %2; diese Version liest bis %3). Aktualisieren Sie Kiln Studio, um es zu öffnen; die Datei bleibt unverändert.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="62"/>
        <source>%1: dataset %2 has no path.</source>
        <translation>%1: Datensatz %2 hat keinen Pfad.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="95"/>
        <source>Cannot save %1: %2. The previous file, if any, is unchanged.</source>
        <translation>%1 kann nicht gespeichert werden: %2. Eine vorherige Datei bleibt unverändert.</translation>
    </message>
</context>
</TS>
