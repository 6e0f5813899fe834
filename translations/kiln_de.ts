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
        <location filename="../gui/app/about_dialog.cpp" line="41"/>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>Lizenziert unter der GNU General Public License, Version 3 oder neuer.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="20"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n Kern, keine CUDA-GPU</numerusform>
            <numerusform>CPU: %n Kerne, keine CUDA-GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="26"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n Kern, GPUs: %1</numerusform>
            <numerusform>CPU: %n Kerne, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="34"/>
        <source>Kiln Studio</source>
        <translation>Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="53"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="55"/>
        <source>&amp;New Project</source>
        <translation>&amp;Neues Projekt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="57"/>
        <source>&amp;Open Project...</source>
        <translation>Projekt ö&amp;ffnen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="59"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="62"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="64"/>
        <source>Save &amp;As...</source>
        <translation>Speichern &amp;unter...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="67"/>
        <source>&amp;Export Embeddings...</source>
        <translation>Einbettungen &amp;exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="70"/>
        <source>&amp;Close Project</source>
        <translation>Projekt s&amp;chließen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="72"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="76"/>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="78"/>
        <source>&amp;Train</source>
        <translation>&amp;Trainieren</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="80"/>
        <source>&amp;Embed</source>
        <translation>&amp;Einbetten</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="82"/>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="85"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="88"/>
        <source>&amp;Datasets</source>
        <translation>&amp;Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="89"/>
        <source>Run &amp;Configuration</source>
        <translation>Lauf&amp;konfiguration</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="90"/>
        <source>Live &amp;Plots</source>
        <translation>Live-&amp;Diagramme</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="91"/>
        <source>Run &amp;History</source>
        <translation>Lauf&amp;verlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="92"/>
        <source>&amp;Embeddings</source>
        <translation>&amp;Einbettungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="96"/>
        <source>&amp;Full Screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="104"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="106"/>
        <source>&amp;About Kiln Studio</source>
        <translation>Ü&amp;ber Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="109"/>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="121"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="123"/>
        <source>Pretrain backbones on your unlabelled images, watch where the time goes, and export embeddings.</source>
        <translation>Trainieren Sie Backbones auf Ihren unbeschrifteten Bildern vor, sehen Sie, wohin die Zeit geht, und exportieren Sie Einbettungen.</translation>
    </message>
</context>
</TS>
