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
        <location filename="../gui/app/main_window.cpp" line="31"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n Kern, keine CUDA-GPU</numerusform>
            <numerusform>CPU: %n Kerne, keine CUDA-GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="37"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n Kern, GPUs: %1</numerusform>
            <numerusform>CPU: %n Kerne, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="45"/>
        <location filename="../gui/app/main_window.cpp" line="334"/>
        <location filename="../gui/app/main_window.cpp" line="365"/>
        <source>Kiln Studio</source>
        <translation>Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="70"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="73"/>
        <source>&amp;New Project</source>
        <translation>&amp;Neues Projekt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="75"/>
        <source>&amp;Open Project...</source>
        <translation>Projekt ö&amp;ffnen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="79"/>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="79"/>
        <location filename="../gui/app/main_window.cpp" line="92"/>
        <location filename="../gui/app/main_window.cpp" line="273"/>
        <source>Kiln projects (*.kiln)</source>
        <translation>Kiln-Projekte (*.kiln)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="84"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="86"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="88"/>
        <source>Save &amp;As...</source>
        <translation>Speichern &amp;unter...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="92"/>
        <source>Save Project As</source>
        <translation>Projekt speichern unter</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="100"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation>Daten&amp;satzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="103"/>
        <source>Add Dataset Folder</source>
        <translation>Datensatzordner hinzufügen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="108"/>
        <source>&amp;Export Embeddings...</source>
        <translation>Einbettungen &amp;exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="111"/>
        <source>&amp;Close Project</source>
        <translation>Projekt s&amp;chließen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="114"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="118"/>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="120"/>
        <source>&amp;Train</source>
        <translation>&amp;Trainieren</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="122"/>
        <source>&amp;Embed</source>
        <translation>&amp;Einbetten</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="124"/>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="128"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="131"/>
        <source>&amp;Datasets</source>
        <translation>&amp;Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="132"/>
        <source>Run &amp;Configuration</source>
        <translation>Lauf&amp;konfiguration</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="133"/>
        <source>Live &amp;Plots</source>
        <translation>Live-&amp;Diagramme</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="134"/>
        <source>Run &amp;History</source>
        <translation>Lauf&amp;verlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="135"/>
        <source>&amp;Embeddings</source>
        <translation>&amp;Einbettungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="147"/>
        <source>&amp;Full Screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="155"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="157"/>
        <source>&amp;About Kiln Studio</source>
        <translation>Ü&amp;ber Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="160"/>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="172"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="174"/>
        <source>Pretrain backbones on your unlabelled images, watch where the time goes, and export embeddings.</source>
        <translation>Trainieren Sie Backbones auf Ihren unbeschrifteten Bildern vor, sehen Sie, wohin die Zeit geht, und exportieren Sie Einbettungen.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="192"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Datensätze&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="195"/>
        <source>Add Dataset Folder...</source>
        <translation>Datensatzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="198"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="216"/>
        <source>Datasets</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="218"/>
        <source>Run History</source>
        <translation>Laufverlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="260"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation>Diese Datensatzordner des Projekts fehlen; schließen Sie das Laufwerk wieder an oder entfernen Sie sie aus dem Projekt:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="272"/>
        <source>Save Project</source>
        <translation>Projekt speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="315"/>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="316"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation>Das Projekt „%1“ hat ungespeicherte Änderungen.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="319"/>
        <source>Save them before going on?</source>
        <translation>Vor dem Fortfahren speichern?</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="366"/>
        <source>%1[*] - Kiln Studio</source>
        <translation>%1[*] - Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="379"/>
        <source>%1 - %2 (missing)</source>
        <translation>%1 - %2 (fehlt)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="380"/>
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
        <location filename="../gui/project/project.cpp" line="97"/>
        <source>Cannot save %1: %2. The previous file, if any, is unchanged.</source>
        <translation>%1 kann nicht gespeichert werden: %2. Eine vorherige Datei bleibt unverändert.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryModel</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="143"/>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="145"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="147"/>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="149"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="151"/>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="153"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="155"/>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="157"/>
        <source>Final loss</source>
        <translation>Letzter Verlust</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="159"/>
        <source>Images/s</source>
        <translation>Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="161"/>
        <source>data_wait (median)</source>
        <translation>data_wait (Median)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryView</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="176"/>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="179"/>
        <source>Open Folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="182"/>
        <source>Delete Run...</source>
        <translation>Lauf löschen...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="224"/>
        <location filename="../gui/runs/run_history.cpp" line="236"/>
        <source>Delete Run</source>
        <translation>Lauf löschen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="225"/>
        <source>Delete the run in %1 with its checkpoints, exported model and logs?</source>
        <translation>Den Lauf in %1 mit seinen Checkpoints, dem exportierten Modell und den Protokollen löschen?</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="237"/>
        <source>Some files in %1 could not be deleted; check their permissions.</source>
        <translation>Einige Dateien in %1 konnten nicht gelöscht werden; prüfen Sie ihre Berechtigungen.</translation>
    </message>
</context>
</TS>
