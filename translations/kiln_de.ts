<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>kiln::config</name>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="85"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="94"/>
        <location filename="../engine/config/train_settings.cpp" line="101"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="119"/>
        <source>kNN monitor: labelled</source>
        <translation>kNN-Monitor: annotiert</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="123"/>
        <source>kNN monitor: classified</source>
        <translation>kNN-Monitor: klassifiziert</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="160"/>
        <source>Teacher</source>
        <translation>Lehrer</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="174"/>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="194"/>
        <source>Start from</source>
        <translation>Ausgangsgewichte</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="296"/>
        <source>Train for</source>
        <translation>Trainieren für</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="339"/>
        <source>Loader workers</source>
        <translation>Lader-Threads</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="341"/>
        <source>Accelerator</source>
        <translation>Beschleuniger</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="352"/>
        <source>Devices</source>
        <translation>Geräte</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="358"/>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="372"/>
        <source>Sync batch norm</source>
        <translation>Batch-Norm synchronisieren</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="380"/>
        <source>Precision</source>
        <translation>Rechenpräzision</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="386"/>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="423"/>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="426"/>
        <source>Weight decay</source>
        <translation>Weight Decay</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="429"/>
        <source>Warm-up epochs</source>
        <translation>Aufwärm-Epochen</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="455"/>
        <source>Backbone learning rate factor</source>
        <translation>Lernratenfaktor des Backbones</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="464"/>
        <source>Layer-wise rate decay</source>
        <translation>Schichtweiser Ratenabfall</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="469"/>
        <source>Head-only epochs</source>
        <translation>Epochen nur für den Kopf</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="559"/>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="568"/>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="584"/>
        <source>Gradient accumulation</source>
        <translation>Gradientenakkumulation</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="601"/>
        <source>Checkpoint every</source>
        <translation>Checkpoint alle</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="649"/>
        <source>Output folder</source>
        <translation>Ausgabeordner</translation>
    </message>
    <message>
        <location filename="../engine/config/command_settings.cpp" line="25"/>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
</context>
<context>
    <name>kiln::gui::AboutDialog</name>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="13"/>
        <source>About Kiln Studio</source>
        <translation>Über Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="42"/>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>Lizenziert unter der GNU General Public License, Version 3 oder neuer.</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="26"/>
        <source>A desktop workstation for pretraining, fine-tuning and embedding computer vision models, on CPUs and GPUs.</source>
        <translation>Eine Desktop-Arbeitsumgebung zum Vortrainieren, Feinabstimmen und Einbetten von Modellen für maschinelles Sehen, auf CPUs und GPUs.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ActionManager</name>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="74"/>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="74"/>
        <source>Redo</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="37"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="40"/>
        <source>&amp;New Project</source>
        <translation>&amp;Neues Projekt</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="42"/>
        <source>&amp;Open Project...</source>
        <translation>Projekt ö&amp;ffnen...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="43"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="45"/>
        <source>Open &amp;Demo Project</source>
        <translation>&amp;Demoprojekt öffnen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="46"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="48"/>
        <source>Save &amp;As...</source>
        <translation>Speichern &amp;unter...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="50"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation>Daten&amp;satzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="52"/>
        <source>&amp;Export Embeddings...</source>
        <translation>Einbettungen &amp;exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="53"/>
        <source>Export &amp;Model...</source>
        <translation>&amp;Modell exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="56"/>
        <source>&amp;Close Project</source>
        <translation>Projekt s&amp;chließen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="57"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="63"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="66"/>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="69"/>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="74"/>
        <source>&amp;Preferences...</source>
        <translation>&amp;Einstellungen...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="91"/>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="94"/>
        <source>&amp;Train</source>
        <translation>&amp;Trainieren</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="96"/>
        <source>&amp;Embed...</source>
        <translation>&amp;Einbetten...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="99"/>
        <source>&amp;Predict...</source>
        <translation>&amp;Vorhersagen...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="100"/>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="102"/>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="104"/>
        <source>Continue the project&apos;s last stopped run from its checkpoint</source>
        <translation>Den zuletzt gestoppten Lauf des Projekts ab seinem Checkpoint fortsetzen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="109"/>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="125"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="128"/>
        <source>&amp;Datasets</source>
        <translation>&amp;Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="129"/>
        <source>Run &amp;Configuration</source>
        <translation>Lauf&amp;konfiguration</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="130"/>
        <source>Live &amp;Plots</source>
        <translation>Live-&amp;Diagramme</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="131"/>
        <source>Run &amp;History</source>
        <translation>Lauf&amp;verlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="132"/>
        <source>&amp;Embeddings</source>
        <translation>&amp;Einbettungen</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="138"/>
        <source>&amp;Full Screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="147"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="150"/>
        <source>&amp;User Guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="156"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="163"/>
        <source>&amp;About Kiln Studio</source>
        <translation>Ü&amp;ber Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="169"/>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
</context>
<context>
    <name>kiln::gui::AugmentationPreview</name>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="29"/>
        <source>Click for new random views</source>
        <translation>Klicken für neue zufällige Ansichten</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="93"/>
        <source>No readable image in this dataset to preview.</source>
        <translation>Kein lesbares Bild in diesem Datensatz für die Vorschau.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="94"/>
        <source>%1 cannot be read.</source>
        <translation>%1 kann nicht gelesen werden.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="112"/>
        <source>Original: %1 x %2 px</source>
        <translation>Original: %1 x %2 px</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="124"/>
        <source>%1 x %2 px</source>
        <translation>%1 x %2 px</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/augmentation_preview.cpp" line="126"/>
        <source>%Ln view(s) of %1 as %2 makes them; click for new ones.</source>
        <translation>
            <numerusform>%Ln Ansicht von %1, wie %2 sie erzeugt; klicken für neue.</numerusform>
            <numerusform>%Ln Ansichten von %1, wie %2 sie erzeugt; klicken für neue.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::BackgroundJob</name>
    <message numerus="yes">
        <location filename="../gui/common/background_job.cpp" line="82"/>
        <source>... and %Ln more warning(s).</source>
        <translation>
            <numerusform>... und %Ln weitere Warnung.</numerusform>
            <numerusform>... und %Ln weitere Warnungen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::BarChart</name>
    <message numerus="yes">
        <location filename="../gui/common/bar_chart.cpp" line="27"/>
        <source>%Ln more</source>
        <translation>
            <numerusform>%Ln weiterer</numerusform>
            <numerusform>%Ln weitere</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::DatasetsPage</name>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="71"/>
        <source>No datasets yet.

Add a folder of images with Add Dataset Folder, or drop it here. Class folders, images with masks, and COCO or YOLO labels are recognised.</source>
        <translation>Noch keine Datensätze.

Fügen Sie mit „Datensatzordner hinzufügen“ einen Bilderordner hinzu, oder ziehen Sie ihn hierher. Klassenordner, Bilder mit Masken sowie COCO- und YOLO-Labels werden erkannt.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="78"/>
        <source>Add Dataset Folder...</source>
        <translation>Datensatzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="81"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="83"/>
        <source>Remove the selected dataset from the project; its files stay</source>
        <translation>Den ausgewählten Datensatz aus dem Projekt entfernen; seine Dateien bleiben erhalten</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="89"/>
        <source>Optimize...</source>
        <translation>Optimieren...</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="91"/>
        <source>Re-encode the selected dataset as JPEG or WebP at training size</source>
        <translation>Den gewählten Datensatz als JPEG oder WebP in Trainingsgröße neu kodieren</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="108"/>
        <source>Select a dataset to see its images, labels and statistics.</source>
        <translation>Wählen Sie einen Datensatz, um seine Bilder, Annotationen und Statistiken zu sehen.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="121"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Datensätze&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="158"/>
        <source>Images without labels</source>
        <translation>Bilder ohne Annotationen</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="159"/>
        <source>Class folders</source>
        <translation>Klassenordner</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="160"/>
        <source>Images with masks</source>
        <translation>Bilder mit Masken</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="161"/>
        <source>COCO annotations</source>
        <translation>COCO-Annotationen</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="162"/>
        <source>YOLO dataset (data.yaml)</source>
        <translation>YOLO-Datensatz (data.yaml)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="163"/>
        <source>What labels the dataset has: found when it was added; change it if Kiln guessed wrong</source>
        <translation>Welche Annotationen der Datensatz hat: beim Hinzufügen erkannt; ändern Sie es, wenn Kiln falsch geraten hat</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="169"/>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="173"/>
        <source>Labels:</source>
        <translation>Annotationen:</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="208"/>
        <source>Images by longest side</source>
        <translation>Bilder nach längster Seite</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="242"/>
        <source>Show labels</source>
        <translation>Annotationen zeigen</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="249"/>
        <source>&lt;b&gt;Images&lt;/b&gt; (click one to preview its augmentations)</source>
        <translation>&lt;b&gt;Bilder&lt;/b&gt; (eines anklicken, um seine Augmentierungen zu sehen)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="263"/>
        <location filename="../gui/datasets/datasets_page.cpp" line="419"/>
        <source>&lt;b&gt;Augmentations of %1&lt;/b&gt; (the Run Configuration&apos;s method)</source>
        <translation>&lt;b&gt;Augmentierungen von %1&lt;/b&gt; (mit der Methode der Laufkonfiguration)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="349"/>
        <source>%1 - %2 (missing)</source>
        <translation>%1 - %2 (fehlt)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="350"/>
        <source>%1 - %2</source>
        <translation>%1 - %2</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="396"/>
        <source>folder of PNG masks named as the images</source>
        <translation>Ordner mit PNG-Masken, benannt wie die Bilder</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="397"/>
        <source>COCO instances JSON</source>
        <translation>COCO-Instanzen-JSON</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="398"/>
        <location filename="../gui/datasets/datasets_page.cpp" line="603"/>
        <source>data.yaml</source>
        <translation>data.yaml</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="402"/>
        <source>Scanning %1...</source>
        <translation>%1 wird durchsucht...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/datasets_page.cpp" line="432"/>
        <source>%Ln readable image(s), %1</source>
        <translation>
            <numerusform>%Ln lesbares Bild, %1</numerusform>
            <numerusform>%Ln lesbare Bilder, %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="434"/>
        <source>Formats: %1</source>
        <translation>Formate: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/datasets_page.cpp" line="436"/>
        <source>%Ln unreadable file(s), left out of training:</source>
        <translation>
            <numerusform>%Ln unlesbare Datei, vom Training ausgelassen:</numerusform>
            <numerusform>%Ln unlesbare Dateien, vom Training ausgelassen:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="443"/>
        <source>under 256 px</source>
        <translation>unter 256 px</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="443"/>
        <source>256-511 px</source>
        <translation>256-511 px</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="443"/>
        <source>512-1023 px</source>
        <translation>512-1023 px</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="444"/>
        <source>1024-2047 px</source>
        <translation>1024-2047 px</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="444"/>
        <source>2048 px and more</source>
        <translation>2048 px und mehr</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="504"/>
        <source>objects in %1 images</source>
        <translation>Objekte in %1 Bildern</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="507"/>
        <source>images; %1 of the pixels</source>
        <translation>Bilder; %1 der Pixel</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="509"/>
        <source>images</source>
        <translation>Bilder</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="512"/>
        <source>Objects per class</source>
        <translation>Objekte pro Klasse</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="512"/>
        <source>Images per class</source>
        <translation>Bilder pro Klasse</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="520"/>
        <source>%1 classes, %2 of %3 images in class folders</source>
        <translation>%1 Klassen, %2 von %3 Bildern in Klassenordnern</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="525"/>
        <source>%1 classes in the masks of %2 images; %3 images have no labelled pixel, %4 of the pixels are ignored (255)</source>
        <translation>%1 Klassen in den Masken von %2 Bildern; %3 Bilder haben kein annotiertes Pixel, %4 der Pixel werden ignoriert (255)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="533"/>
        <source>Training split: %1 objects of %2 classes in %3 images, %4 of them without objects. Box sizes: %5 small, %6 medium, %7 large (COCO&apos;s limits: 32 and 96 px)</source>
        <translation>Trainingsteil: %1 Objekte aus %2 Klassen in %3 Bildern, %4 davon ohne Objekte. Boxgrößen: %5 klein, %6 mittel, %7 groß (COCOs Grenzen: 32 und 96 px)</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/datasets_page.cpp" line="549"/>
        <source>%Ln problem(s) with the labels, listed below; training refuses the dataset until they are fixed.</source>
        <translation>
            <numerusform>%Ln Problem mit den Labels, unten aufgeführt; das Training lehnt den Datensatz ab, bis es behoben ist.</numerusform>
            <numerusform>%Ln Probleme mit den Labels, unten aufgeführt; das Training lehnt den Datensatz ab, bis sie behoben sind.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="601"/>
        <source>Folder of Masks</source>
        <translation>Ordner der Masken</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="603"/>
        <source>COCO Annotations</source>
        <translation>COCO-Annotationen</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="605"/>
        <source>COCO JSON (*.json)</source>
        <translation>COCO-JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="606"/>
        <source>YOLO data file (*.yaml *.yml)</source>
        <translation>YOLO-Datendatei (*.yaml *.yml)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::EmbeddingsPage</name>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="21"/>
        <source>Open Embeddings File...</source>
        <translation>Einbettungsdatei öffnen...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="25"/>
        <source>Open Embeddings</source>
        <translation>Einbettungen öffnen</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="29"/>
        <source>Embeddings (*.csv *.pt *.npy)</source>
        <translation>Einbettungen (*.csv *.pt *.npy)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="36"/>
        <source>Embeddings files exported or opened in this project</source>
        <translation>In diesem Projekt exportierte oder geöffnete Embedding-Dateien</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="40"/>
        <source>%1 is no longer there; export the embeddings again or open another file.</source>
        <translation>%1 ist nicht mehr vorhanden; exportieren Sie die Einbettungen erneut oder öffnen Sie eine andere Datei.</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="53"/>
        <source>Project embeddings:</source>
        <translation>Einbettungen des Projekts:</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="98"/>
        <source>none yet: File ▸ Export Embeddings</source>
        <translation>noch keine: Datei ▸ Einbettungen exportieren</translation>
    </message>
</context>
<context>
    <name>kiln::gui::EmbeddingsView</name>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="1"/>
        <source>&lt;b&gt;Selected&lt;/b&gt; with the lasso</source>
        <translation>&lt;b&gt;Ausgewählt&lt;/b&gt; mit dem Lasso</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="286"/>
        <source>first principal component</source>
        <translation>erste Hauptkomponente</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="287"/>
        <source>second principal component</source>
        <translation>zweite Hauptkomponente</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="133"/>
        <source>Lasso</source>
        <translation>Lasso</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="136"/>
        <source>Drag around points to select them, instead of moving the plot</source>
        <translation>Punkte durch Umfahren auswählen, statt die Grafik zu verschieben</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="139"/>
        <source>Export Selection...</source>
        <translation>Auswahl exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="143"/>
        <source>Copy Images to Folder...</source>
        <translation>Bilder in Ordner kopieren...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="146"/>
        <source>Copy the selected images, e.g. for a labelling tool</source>
        <translation>Die ausgewählten Bilder kopieren, z. B. für ein Labelling-Werkzeug</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="148"/>
        <source>Select for Labelling...</source>
        <translation>Zum Labeln auswählen...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="150"/>
        <source>Pick the images that are worth labelling first: typical images of every cluster, or the most diverse ones</source>
        <translation>Die Bilder wählen, deren Labeln sich zuerst lohnt: typische Bilder jedes Clusters oder die verschiedensten</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="156"/>
        <source>PCA</source>
        <translation>PCA</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="157"/>
        <source>UMAP</source>
        <translation>UMAP</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="158"/>
        <source>t-SNE</source>
        <translation>t-SNE</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="159"/>
        <source>How the embeddings are laid out: PCA at once; UMAP and t-SNE keep each image&apos;s neighbours close and pull clusters apart (seconds to minutes for large sets)</source>
        <translation>Wie die Einbettungen angeordnet werden: PCA sofort; UMAP und t-SNE halten die Nachbarn jedes Bildes nah beieinander und ziehen Cluster auseinander (Sekunden bis Minuten bei großen Mengen)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="171"/>
        <source>Reset View</source>
        <translation>Ansicht zurücksetzen</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="173"/>
        <source>Show every point again after dragging or zooming (or double-click the plot)</source>
        <translation>Nach Ziehen oder Zoomen wieder alle Punkte zeigen (oder Doppelklick in die Grafik)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="207"/>
        <source>&amp;Map:</source>
        <translation>&amp;Karte:</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="224"/>
        <source>&lt;p&gt;&lt;b&gt;No embeddings to show yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;File ▸ Export Embeddings writes them for a dataset with a trained model; Open Embeddings File below shows a file kiln embed wrote (CSV, torch or npy).&lt;/p&gt;&lt;p&gt;Each image becomes a point on a map, similar images close together: find near-duplicates and outliers, and pick the images worth labelling first.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Noch keine Einbettungen zum Anzeigen.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Datei ▸ Einbettungen exportieren schreibt sie für einen Datensatz mit einem trainierten Modell; Einbettungsdatei öffnen (unten) zeigt eine Datei, die kiln embed geschrieben hat (CSV, torch oder npy).&lt;/p&gt;&lt;p&gt;Jedes Bild wird ein Punkt auf einer Karte, ähnliche Bilder liegen nahe beieinander: Finden Sie Beinahe-Duplikate und Ausreißer, und wählen Sie die Bilder, die sich zuerst zu annotieren lohnen.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="286"/>
        <source>%1 1</source>
        <translation>%1 1</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="287"/>
        <source>%1 2</source>
        <translation>%1 2</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="292"/>
        <source>Projecting %1...</source>
        <translation>%1 wird projiziert...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="374"/>
        <source>%Ln other folder(s)</source>
        <translation>
            <numerusform>%Ln weiterer Ordner</numerusform>
            <numerusform>%Ln weitere Ordner</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="417"/>
        <source>%Ln embedding(s)</source>
        <translation>
            <numerusform>%Ln Einbettung</numerusform>
            <numerusform>%Ln Einbettungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="419"/>
        <source>in %Ln group(s) by top-level folder.</source>
        <translation>
            <numerusform>in %Ln Gruppe nach oberstem Ordner.</numerusform>
            <numerusform>in %Ln Gruppen nach oberstem Ordner.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="545"/>
        <source>Picking %Ln image(s) to label...</source>
        <translation>
            <numerusform>%Ln Bild zum Labeln wird gewählt...</numerusform>
            <numerusform>%Ln Bilder zum Labeln werden gewählt...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="569"/>
        <source>%Ln image(s) to label first (%1), highlighted</source>
        <translation>
            <numerusform>%Ln Bild zuerst zu labeln (%1), hervorgehoben</numerusform>
            <numerusform>%Ln Bilder zuerst zu labeln (%1), hervorgehoben</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="596"/>
        <source>&lt;b&gt;Nearest neighbours&lt;/b&gt; (click a point, or a thumbnail)</source>
        <translation>&lt;b&gt;Nächste Nachbarn&lt;/b&gt; (einen Punkt oder ein Vorschaubild anklicken)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="498"/>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="511"/>
        <source>Drag around points to select them.</source>
        <translation>Punkte umfahren, um sie auszuwählen.</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="512"/>
        <source>%Ln point(s) selected</source>
        <translation>
            <numerusform>%Ln Punkt ausgewählt</numerusform>
            <numerusform>%Ln Punkte ausgewählt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="572"/>
        <source>; %Ln labelled already or near-duplicates left out</source>
        <translation>
            <numerusform>; %Ln bereits gelabeltes Bild oder Beinahe-Duplikat ausgelassen</numerusform>
            <numerusform>; %Ln bereits gelabelte Bilder oder Beinahe-Duplikate ausgelassen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="602"/>
        <source>&lt;b&gt;To label first&lt;/b&gt;, in the order picked</source>
        <translation>&lt;b&gt;Zuerst zu labeln&lt;/b&gt;, in der gewählten Reihenfolge</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="632"/>
        <source>Copying %Ln image(s)...</source>
        <translation>
            <numerusform>Kopiere %Ln Bild...</numerusform>
            <numerusform>Kopiere %Ln Bilder...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="650"/>
        <source>%Ln image(s) were not copied (already there, or unreadable), the first %1</source>
        <translation>
            <numerusform>%Ln Bild wurde nicht kopiert (schon vorhanden oder unlesbar): %1</numerusform>
            <numerusform>%Ln Bilder wurden nicht kopiert (schon vorhanden oder unlesbar), das erste %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="675"/>
        <source>Copy Images to Folder</source>
        <translation>Bilder in Ordner kopieren</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="660"/>
        <source>Copied %Ln image(s) to %1</source>
        <translation>
            <numerusform>%Ln Bild nach %1 kopiert</numerusform>
            <numerusform>%Ln Bilder nach %1 kopiert</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="699"/>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="705"/>
        <source>Export Selection</source>
        <translation>Auswahl exportieren</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="706"/>
        <source>Text files, one image a line (*.txt)</source>
        <translation>Textdateien, ein Bild pro Zeile (*.txt)</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="712"/>
        <source>Wrote %Ln name(s) to %1</source>
        <translation>
            <numerusform>%Ln Name nach %1 geschrieben</numerusform>
            <numerusform>%Ln Namen nach %1 geschrieben</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="732"/>
        <source>%1
selected</source>
        <translation>%1
ausgewählt</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="261"/>
        <source>Loading and projecting %1...</source>
        <translation>%1 wird geladen und projiziert...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="377"/>
        <source>(top folder)</source>
        <translation>(oberster Ordner)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="385"/>
        <source>neighbours</source>
        <translation>Nachbarn</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="393"/>
        <source>selection</source>
        <translation>Auswahl</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ExportEmbeddingsDialog</name>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="35"/>
        <source>Export Embeddings</source>
        <translation>Einbettungen exportieren</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="48"/>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="66"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="67"/>
        <source>Kiln models (*.pt *.ckpt *.pth)</source>
        <translation>Kiln-Modelle (*.pt *.ckpt *.pth)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="52"/>
        <source>no run has a model yet: Browse... for a model file</source>
        <translation>noch kein Lauf mit Modell: Durchsuchen... für eine Modelldatei</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="68"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="69"/>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="70"/>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="71"/>
        <source>Write to</source>
        <translation>Schreiben nach</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="71"/>
        <source>Write the Embeddings to</source>
        <translation>Einbettungen schreiben nach</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="72"/>
        <source>Embeddings (*.csv *.pt *.npy)</source>
        <translation>Einbettungen (*.csv *.pt *.npy)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="73"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="103"/>
        <source>embeddings</source>
        <translation>einbettungen</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ExportModelDialog</name>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="15"/>
        <source>Export Model</source>
        <translation>Modell exportieren</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="26"/>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="28"/>
        <source>backbone</source>
        <translation>Backbone</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="50"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="51"/>
        <source>Kiln models (*.ckpt *.pt *.pth)</source>
        <translation>Kiln-Modelle (*.ckpt *.pt *.pth)</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="34"/>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="31"/>
        <source>no run has a checkpoint yet: Browse... for one</source>
        <translation>noch kein Lauf mit Checkpoint: Durchsuchen... für einen</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="35"/>
        <source>fp16 (half the size; for GPUs)</source>
        <translation>fp16 (halbe Größe; für GPUs)</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="39"/>
        <source>dynamic (any number of images)</source>
        <translation>dynamisch (beliebig viele Bilder)</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="43"/>
        <source>ONNX (opset 17) for ONNX Runtime and TensorRT. The model takes normalised RGB images; the file&apos;s metadata says how to prepare them and names the classes.</source>
        <translation>ONNX (Opset 17) für ONNX Runtime und TensorRT. Das Modell erwartet normalisierte RGB-Bilder; die Metadaten der Datei beschreiben die Vorverarbeitung und nennen die Klassen.</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="52"/>
        <source>Precision</source>
        <translation>Rechenpräzision</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="53"/>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="54"/>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="55"/>
        <source>Write to</source>
        <translation>Schreiben nach</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="56"/>
        <source>Write the Model to</source>
        <translation>Modell schreiben nach</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="56"/>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX-Modelle (*.onnx)</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="57"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
</context>
<context>
    <name>kiln::gui::JobController</name>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="41"/>
        <source>starting...</source>
        <translation>wird gestartet...</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="46"/>
        <source>embedding...</source>
        <translation>wird eingebettet...</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="61"/>
        <source>The training stopped with an error:
%1</source>
        <translation>Das Training wurde mit einem Fehler beendet:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="69"/>
        <source>embedding: batch %1 of %2</source>
        <translation>Einbetten: Batch %1 von %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/job_controller.cpp" line="74"/>
        <source>Wrote %Ln embedding(s) of dimension %1 to %2.</source>
        <translation>
            <numerusform>%Ln Einbettung der Dimension %1 nach %2 geschrieben.</numerusform>
            <numerusform>%Ln Einbettungen der Dimension %1 nach %2 geschrieben.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/job_controller.cpp" line="79"/>
        <source>%Ln unreadable image(s) were left out.</source>
        <translation>
            <numerusform>%Ln unlesbares Bild wurde ausgelassen.</numerusform>
            <numerusform>%Ln unlesbare Bilder wurden ausgelassen.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="88"/>
        <source>The embedding stopped with an error:
%1</source>
        <translation>Das Einbetten wurde mit einem Fehler beendet:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="93"/>
        <source>The embedding was stopped; no file was written.</source>
        <translation>Das Einbetten wurde gestoppt; es wurde keine Datei geschrieben.</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="123"/>
        <source>epoch %1/%2, step %3/%4, loss %5, data_wait %6%, ETA %7</source>
        <translation>Epoche %1/%2, Schritt %3/%4, Verlust %5, data_wait %6%, Restzeit %7</translation>
    </message>
</context>
<context>
    <name>kiln::gui::LabellingPickDialog</name>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="33"/>
        <source>Select for Labelling</source>
        <translation>Zum Labeln auswählen</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="66"/>
        <source>Typical: the most typical image of each cluster</source>
        <translation>Typisch: das typischste Bild jedes Clusters</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="67"/>
        <source>Diverse: each image far from the others</source>
        <translation>Vielfältig: jedes Bild weit von den anderen</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="68"/>
        <source>Balanced: the same number from every cluster</source>
        <translation>Ausgewogen: gleich viele aus jedem Cluster</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="69"/>
        <source>Random</source>
        <translation>Zufällig</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="43"/>
        <source>none: a folder of labelled images, or a list</source>
        <translation>keine: ein Ordner gelabelter Bilder oder eine Liste</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="56"/>
        <source>Folder...</source>
        <translation>Ordner...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="57"/>
        <source>List...</source>
        <translation>Liste...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="57"/>
        <source>Names of the Labelled Images</source>
        <translation>Namen der gelabelten Bilder</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="58"/>
        <source>Text files, one name a line (*.txt)</source>
        <translation>Textdateien, ein Name pro Zeile (*.txt)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="46"/>
        <source>Leave out near-duplicates</source>
        <translation>Beinahe-Duplikate auslassen</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="38"/>
        <source>How many images to pick</source>
        <translation>Wie viele Bilder ausgewählt werden</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="48"/>
        <source>Whiten the embeddings first</source>
        <translation>Embeddings zuerst whitenen (PCA)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="52"/>
        <source>Images to label:</source>
        <translation>Zu labelnde Bilder:</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="53"/>
        <source>Strategy:</source>
        <translation>Strategie:</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="54"/>
        <source>Labelled already:</source>
        <translation>Bereits gelabelt:</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="56"/>
        <source>Labelled Images</source>
        <translation>Gelabelte Bilder</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="61"/>
        <source>Select</source>
        <translation>Auswählen</translation>
    </message>
</context>
<context>
    <name>kiln::gui::LivePlots</name>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="1"/>
        <source>The run is starting: it reads its data and builds its model, and its first step is drawn here as soon as it is done.</source>
        <translation>Der Lauf startet: Er liest seine Daten und baut sein Modell auf; sein erster Schritt wird hier gezeichnet, sobald er fertig ist.</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="121"/>
        <source>No GPU in this run: GPU utilisation and memory are not plotted.</source>
        <translation>Keine GPU in diesem Lauf: GPU-Auslastung und -Speicher werden nicht gezeichnet.</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="126"/>
        <source>loss (smoothed)</source>
        <translation>Loss (geglättet)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="142"/>
        <source>Smoothing of the loss, as TensorBoard&apos;s</source>
        <translation>Glättung des Loss, wie in TensorBoard</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="148"/>
        <source>Log scale</source>
        <translation>Log. Skala</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="151"/>
        <source>Reset View</source>
        <translation>Ansicht zurücksetzen</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="153"/>
        <source>Follow the run again after zooming or panning (or double-click a plot)</source>
        <translation>Nach Zoomen oder Verschieben wieder dem Lauf folgen (oder Doppelklick auf ein Diagramm)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="155"/>
        <source>Export...</source>
        <translation>Exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="159"/>
        <source>Export Plots</source>
        <translation>Diagramme exportieren</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="160"/>
        <source>CSV of the values (*.csv);;PNG image (*.png)</source>
        <translation>CSV der Werte (*.csv);;PNG-Bild (*.png)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="175"/>
        <source>Smoothing</source>
        <translation>Glättung</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="275"/>
        <location filename="../gui/plots/live_plots.cpp" line="304"/>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="313"/>
        <source>Cannot write %1 as a PNG image.</source>
        <translation>%1 kann nicht als PNG-Bild geschrieben werden.</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="82"/>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="372"/>
        <source>Validation (step %1: metrics being computed)</source>
        <translation>Validierung (Schritt %1: Metriken werden berechnet)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="82"/>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="50"/>
        <source>Nothing to plot yet: Run ▸ Train (Ctrl+R) starts a run of the Run Configuration, and its loss, speed and where the time goes are drawn here as it trains. A project opens with its last run here.</source>
        <translation>Noch nichts zu zeichnen: Ausführen ▸ Trainieren (Strg+R) startet einen Lauf der Laufkonfiguration, und sein Verlust, seine Geschwindigkeit und wohin die Zeit geht werden hier gezeichnet, während er trainiert. Ein Projekt öffnet sich mit seinem letzten Lauf hier.</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="82"/>
        <source>learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="84"/>
        <source>data_wait (%)</source>
        <translation>data_wait (%)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="84"/>
        <source>data_wait</source>
        <translation>data_wait</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="85"/>
        <source>CPU utilisation (%)</source>
        <translation>CPU-Auslastung (%)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="86"/>
        <source>system</source>
        <translation>System</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="86"/>
        <source>this process</source>
        <translation>dieser Prozess</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="87"/>
        <source>GPU utilisation (%) and memory (MB)</source>
        <translation>GPU-Auslastung (%) und Speicher (MB)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="88"/>
        <source>Images/s</source>
        <translation>Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="88"/>
        <source>images/s</source>
        <translation>Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="99"/>
        <location filename="../gui/plots/live_plots.cpp" line="110"/>
        <source>best</source>
        <translation>bester</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="134"/>
        <source>Over time instead of steps</source>
        <translation>Über die Zeit statt über Schritte</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="205"/>
        <location filename="../gui/plots/live_plots.cpp" line="232"/>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="232"/>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="411"/>
        <source>GPU %1 utilisation</source>
        <translation>GPU %1 Auslastung</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="415"/>
        <source>GPU %1 memory</source>
        <translation>GPU %1 Speicher</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="486"/>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="488"/>
        <source>%1: loss %2, learning rate %3</source>
        <translation>%1: Verlust %2, Lernrate %3</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="494"/>
        <source>%1: data_wait %2%</source>
        <translation>%1: data_wait %2%</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="497"/>
        <source>%1: CPU %2%</source>
        <translation>%1: CPU %2%</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="500"/>
        <source>%1: %2 images/s</source>
        <translation>%1: %2 Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="510"/>
        <source>evaluation after step %1: %2 %3%4</source>
        <translation>Auswertung nach Schritt %1: %2 %3%4</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="516"/>
        <source>evaluation after step %1: %2 %3, validation loss %4%5</source>
        <translation>Auswertung nach Schritt %1: %2 %3, Validierungsverlust %4%5</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="531"/>
        <source>GPU %1 %2, %3</source>
        <translation>GPU %1 %2, %3</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="533"/>
        <location filename="../gui/plots/live_plots.cpp" line="535"/>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="89"/>
        <location filename="../gui/plots/live_plots.cpp" line="371"/>
        <source>Validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="90"/>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="507"/>
        <source> (best)</source>
        <translation> (bester Wert)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::LivePlotsPage</name>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="24"/>
        <source>Optimize Dataset...</source>
        <translation>Datensatz optimieren...</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="25"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="36"/>
        <source>Continue the run from its last checkpoint (Run ▸ Resume)</source>
        <translation>Den Lauf ab seinem letzten Checkpoint fortsetzen (Ausführen ▸ Fortsetzen)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="51"/>
        <source>Where the time went</source>
        <translation>Wohin die Zeit ging</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="125"/>
        <source>Optimize Dataset (the button below)</source>
        <translation>Datensatz optimieren (die Schaltfläche unten)</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="154"/>
        <source>Finished after %Ln step(s).</source>
        <translation>
            <numerusform>Nach %Ln Schritt beendet.</numerusform>
            <numerusform>Nach %Ln Schritten beendet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="155"/>
        <source>Stopped after %Ln step(s); it can be resumed.</source>
        <translation>
            <numerusform>Nach %Ln Schritt gestoppt; er kann fortgesetzt werden.</numerusform>
            <numerusform>Nach %Ln Schritten gestoppt; er kann fortgesetzt werden.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="159"/>
        <source>Best %1: %2 at step %3 (checkpoints/best.ckpt).</source>
        <translation>Bester Wert von %1: %2 bei Schritt %3 (checkpoints/best.ckpt).</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="179"/>
        <source>Set %1 to %2</source>
        <translation>%1 auf %2 setzen</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="181"/>
        <source>Changes the run configuration for the next run</source>
        <translation>Ändert die Laufkonfiguration für den nächsten Lauf</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="209"/>
        <source>This run warned:</source>
        <translation>Dieser Lauf hat gewarnt:</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="218"/>
        <source>and %Ln more (see train.log in the run&apos;s folder)</source>
        <translation>
            <numerusform>und %Ln weitere (siehe train.log im Ordner des Laufs)</numerusform>
            <numerusform>und %Ln weitere (siehe train.log im Ordner des Laufs)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="213"/>
        <source>(%Ln times)</source>
        <translation>
            <numerusform>(%Ln-mal)</numerusform>
            <numerusform>(%Ln-mal)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="39"/>
        <source>CPU: %Ln core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %Ln Kern, keine CUDA-GPU</numerusform>
            <numerusform>CPU: %Ln Kerne, keine CUDA-GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="45"/>
        <source>CPU: %Ln core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %Ln Kern, GPUs: %1</numerusform>
            <numerusform>CPU: %Ln Kerne, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="239"/>
        <source>Kiln Studio</source>
        <translation>Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="174"/>
        <source>%1 is now %2 for the next run.</source>
        <translation>%1 ist für den nächsten Lauf jetzt %2.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="228"/>
        <source>Looking for GPUs...</source>
        <translation>Suche nach GPUs...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="240"/>
        <source>%1[*] - Kiln Studio</source>
        <translation>%1[*] - Kiln Studio</translation>
    </message>
</context>
<context>
    <name>kiln::gui::MessageBoxes</name>
    <message>
        <location filename="../gui/common/message_boxes.cpp" line="17"/>
        <source>Warnings were logged: Show Details lists them.</source>
        <translation>Es wurden Warnungen protokolliert: Details einblenden listet sie auf.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::MetricTitles</name>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="12"/>
        <source>validation loss</source>
        <translation>Validierungsverlust</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="14"/>
        <source>training loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="16"/>
        <source>top-1 accuracy</source>
        <translation>Top-1-Genauigkeit</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="18"/>
        <source>top-5 accuracy</source>
        <translation>Top-5-Genauigkeit</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="20"/>
        <source>top-1 accuracy, class mean</source>
        <translation>Top-1-Genauigkeit, Klassenmittel</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="21"/>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="23"/>
        <source>F1, class mean</source>
        <translation>F1, Klassenmittel</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="25"/>
        <source>precision, class mean</source>
        <translation>Präzision, Klassenmittel</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="27"/>
        <source>recall, class mean</source>
        <translation>Trefferquote, Klassenmittel</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="28"/>
        <source>mIoU</source>
        <translation>mIoU</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="30"/>
        <source>pixel accuracy</source>
        <translation>Pixelgenauigkeit</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="31"/>
        <source>mAP</source>
        <translation>mAP</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="32"/>
        <source>mAP50</source>
        <translation>mAP50</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="33"/>
        <source>mAP75</source>
        <translation>mAP75</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="34"/>
        <source>box mAP</source>
        <translation>Box-mAP</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="35"/>
        <source>kNN top-1</source>
        <translation>kNN Top-1</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="36"/>
        <source>kNN top-5</source>
        <translation>kNN Top-5</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ModelCommands</name>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="52"/>
        <source>exporting the model...</source>
        <translation>Modell wird exportiert...</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="60"/>
        <source>Exported the %1 (%2, %3 x %4 px) to %5.</source>
        <translation>%1 (%2, %3 x %4 px) nach %5 exportiert.</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="66"/>
        <source>Outputs: %1</source>
        <translation>Ausgaben: %1</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="68"/>
        <source>The model could not be exported:
%1</source>
        <translation>Das Modell konnte nicht exportiert werden:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="86"/>
        <source>predicting...</source>
        <translation>Vorhersage läuft...</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="92"/>
        <source>predicting: %1 of %2 images</source>
        <translation>Vorhersage: %1 von %2 Bildern</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/model_commands.cpp" line="96"/>
        <source>Predicted %Ln image(s) (%1) into %2.</source>
        <translation>
            <numerusform>%Ln Bild vorhergesagt (%1), nach %2.</numerusform>
            <numerusform>%Ln Bilder vorhergesagt (%1), nach %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/model_commands.cpp" line="101"/>
        <source>%Ln unreadable image(s) were left out.</source>
        <translation>
            <numerusform>%Ln unlesbares Bild wurde ausgelassen.</numerusform>
            <numerusform>%Ln unlesbare Bilder wurden ausgelassen.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="112"/>
        <source>They cannot be shown here: %1</source>
        <translation>Sie können hier nicht angezeigt werden: %1</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="116"/>
        <source>The prediction stopped with an error:
%1</source>
        <translation>Die Vorhersage brach mit einem Fehler ab:
%1</translation>
    </message>
</context>
<context>
    <name>kiln::gui::OptimizeDatasetDialog</name>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="82"/>
        <source>Estimating the copy&apos;s size...</source>
        <translation>Die Größe der Kopie wird geschätzt...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="149"/>
        <source>%Ln file(s), %1; the copy: about %2 (estimated from %3 of them).</source>
        <translation>
            <numerusform>%Ln Datei, %1; die Kopie: etwa %2 (geschätzt aus %3 davon).</numerusform>
            <numerusform>%Ln Dateien, %1; die Kopie: etwa %2 (geschätzt aus %3 davon).</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="156"/>
        <source>That is larger than the dataset: these images are already compact. Lower the quality, choose WebP, or keep them as they are.</source>
        <translation>Das ist größer als der Datensatz: diese Bilder sind schon kompakt. Senken Sie die Qualität, wählen Sie WebP oder lassen Sie sie, wie sie sind.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="161"/>
        <source>Optimize Anyway</source>
        <translation>Trotzdem optimieren</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="30"/>
        <source>Optimize Dataset</source>
        <translation>Datensatz optimieren</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="39"/>
        <source>keep the size</source>
        <translation>Größe beibehalten</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="40"/>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="46"/>
        <source>Decoding PNG and large images costs CPU in every epoch; JPEG or WebP at the training resolution costs far less.</source>
        <translation>Das Dekodieren von PNG und großen Bildern kostet in jeder Epoche CPU; JPEG oder WebP in Trainingsauflösung kostet weit weniger.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="60"/>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="61"/>
        <source>Destination</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="62"/>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="63"/>
        <source>Longest side at most</source>
        <translation>Längste Seite höchstens</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="64"/>
        <source>Quality</source>
        <translation>Qualität</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="66"/>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="161"/>
        <source>Optimize</source>
        <translation>Optimieren</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="130"/>
        <source>The size could not be estimated: %1</source>
        <translation>Die Größe konnte nicht geschätzt werden: %1</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="190"/>
        <source>Optimizing...</source>
        <translation>Wird optimiert...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="201"/>
        <source>Stopped after %Ln image(s).</source>
        <translation>
            <numerusform>Nach %Ln Bild gestoppt.</numerusform>
            <numerusform>Nach %Ln Bildern gestoppt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="202"/>
        <source>Wrote %Ln image(s): %1 became %2.</source>
        <translation>
            <numerusform>%Ln Bild geschrieben: aus %1 wurden %2.</numerusform>
            <numerusform>%Ln Bilder geschrieben: aus %1 wurden %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="207"/>
        <source>%Ln unreadable file(s) skipped.</source>
        <translation>
            <numerusform>%Ln unlesbare Datei übersprungen.</numerusform>
            <numerusform>%Ln unlesbare Dateien übersprungen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::PerClassResults</name>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="30"/>
        <source>Accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="31"/>
        <source>AP</source>
        <translation>AP</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="32"/>
        <source>IoU</source>
        <translation>IoU</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="33"/>
        <source>AP (IoU 0.50-0.95)</source>
        <translation>AP (IoU 0,50-0,95)</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="119"/>
        <source>true %1, predicted %2: %3 of %4</source>
        <translation>wahr %1, vorhergesagt %2: %3 von %4</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="132"/>
        <source>Confusion matrix, validation at step %1 (rows: true class, columns: predicted)</source>
        <translation>Konfusionsmatrix, Validierung bei Schritt %1 (Zeilen: wahre Klasse, Spalten: vorhergesagt)</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="151"/>
        <source>Precision-recall at step %1 (select classes in the table to compare them)</source>
        <translation>Precision-Recall bei Schritt %1 (Klassen in der Tabelle auswählen, um sie zu vergleichen)</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="209"/>
        <source>Class</source>
        <translation>Klasse</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="225"/>
        <source>Per class, validation at step %1</source>
        <translation>Je Klasse, Validierung bei Schritt %1</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PrecisionRecallPlot</name>
    <message>
        <location filename="../gui/plots/precision_recall_plot.cpp" line="14"/>
        <source>recall</source>
        <translation>Recall</translation>
    </message>
    <message>
        <location filename="../gui/plots/precision_recall_plot.cpp" line="15"/>
        <source>precision (IoU 0.5)</source>
        <translation>Precision (IoU 0,5)</translation>
    </message>
    <message>
        <location filename="../gui/plots/precision_recall_plot.cpp" line="59"/>
        <source>%1, AP50 %2</source>
        <translation>%1, AP50 %2</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictDialog</name>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="27"/>
        <location filename="../gui/predict/predict_dialog.cpp" line="63"/>
        <source>Predict</source>
        <translation>Vorhersagen</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="37"/>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="42"/>
        <source>no fine-tuning run yet: Browse... for a checkpoint</source>
        <translation>noch kein Feinabstimmungslauf: Durchsuchen... für einen Checkpoint</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="54"/>
        <location filename="../gui/predict/predict_dialog.cpp" line="55"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="55"/>
        <source>Kiln checkpoints (*.ckpt)</source>
        <translation>Kiln-Checkpoints (*.ckpt)</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="56"/>
        <source>Images to predict on</source>
        <translation>Bilder für die Vorhersage</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="57"/>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="60"/>
        <source>Write the Predictions to</source>
        <translation>Vorhersagen schreiben nach</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="61"/>
        <source>Results (*.csv *.json);;Any file or folder (*)</source>
        <translation>Ergebnisse (*.csv *.json);;Beliebige Datei oder beliebiger Ordner (*)</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="51"/>
        <source>Also write the images with their detections drawn</source>
        <translation>Auch die Bilder mit eingezeichneten Erkennungen schreiben</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="56"/>
        <source>Images</source>
        <translation>Bilder</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="59"/>
        <source>Write to</source>
        <translation>Schreiben nach</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictionPreviewsView</name>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="49"/>
        <source>Predicted boxes scoring below this are not drawn</source>
        <translation>Vorhergesagte Boxen mit geringerem Score werden nicht gezeichnet</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="53"/>
        <source>Score threshold:</source>
        <translation>Score-Schwelle:</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="99"/>
        <source>&lt;b&gt;Predictions at step %1&lt;/b&gt;: each validation image&apos;s labels above, what the model made of it below</source>
        <translation>&lt;b&gt;Vorhersagen bei Schritt %1&lt;/b&gt;: oben die Annotationen jedes Validierungsbilds, unten, was das Modell daraus machte</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="208"/>
        <source>...</source>
        <translation>...</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="228"/>
        <source>%1
true: %2
predicted: %3</source>
        <translation>%1
wahr: %2
vorhergesagt: %3</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="230"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/prediction_previews.cpp" line="232"/>
        <source>%1
%Ln object(s), </source>
        <translation>
            <numerusform>%1
%Ln Objekt, </numerusform>
            <numerusform>%1
%Ln Objekte, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/prediction_previews.cpp" line="233"/>
        <source>%Ln box(es) shown</source>
        <translation>
            <numerusform>%Ln Box gezeigt</numerusform>
            <numerusform>%Ln Boxen gezeigt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictionTileModel</name>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="90"/>
        <location filename="../gui/predict/predictions_browser.cpp" line="170"/>
        <source>(unknown)</source>
        <translation>(unbekannt)</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/predict/predictions_browser.cpp" line="97"/>
        <source>%Ln found</source>
        <translation>
            <numerusform>%Ln gefunden</numerusform>
            <numerusform>%Ln gefunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/predict/predictions_browser.cpp" line="100"/>
        <source>%Ln labelled</source>
        <translation>
            <numerusform>%Ln annotiert</numerusform>
            <numerusform>%Ln annotiert</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="109"/>
        <source>%1% of pixels wrong</source>
        <translation>%1 % der Pixel falsch</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="115"/>
        <source>label: %1</source>
        <translation>Annotation: %1</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="118"/>
        <source>no prediction</source>
        <translation>keine Vorhersage</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictionsBrowser</name>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="235"/>
        <source>Predictions</source>
        <translation>Vorhersagen</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="237"/>
        <source>all classes</source>
        <translation>alle Klassen</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="250"/>
        <source>most confident first</source>
        <translation>sicherste zuerst</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="251"/>
        <source>least confident first</source>
        <translation>unsicherste zuerst</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="254"/>
        <source>disagreeing with labels first</source>
        <translation>Abweichungen von den Annotationen zuerst</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="256"/>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="275"/>
        <source>&amp;Class:</source>
        <translation>&amp;Klasse:</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="276"/>
        <source>&amp;Score at least:</source>
        <translation>&amp;Score mindestens:</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="277"/>
        <source>S&amp;ort by:</source>
        <translation>S&amp;ortieren nach:</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="282"/>
        <source>Dashed outlines are the dataset&apos;s labels.</source>
        <translation>Gestrichelte Umrisse sind die Annotationen des Datensatzes.</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="293"/>
        <source>The labels could not all be read:
%1</source>
        <translation>Nicht alle Annotationen konnten gelesen werden:
%1</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="302"/>
        <source>The prediction logged warnings:
%1</source>
        <translation>Die Vorhersage hat Warnungen protokolliert:
%1</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="354"/>
        <source>%1 of %2 images</source>
        <translation>%1 von %2 Bildern</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PreferencesDialog</name>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="53"/>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="56"/>
        <location filename="../gui/app/preferences_dialog.cpp" line="62"/>
        <source>As the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="63"/>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="64"/>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="70"/>
        <source>A new language applies when Kiln Studio starts again.</source>
        <translation>Eine neue Sprache gilt beim nächsten Start von Kiln Studio.</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="73"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="74"/>
        <source>Theme</source>
        <translation>Farbschema</translation>
    </message>
</context>
<context>
    <name>kiln::gui::Project</name>
    <message>
        <location filename="../gui/project/project.cpp" line="106"/>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="124"/>
        <source>%1 lists %2 datasets; a project holds at most %3. Check the file: a list this long was not made by Kiln Studio.</source>
        <translation>%1 führt %2 Datensätze auf; ein Projekt enthält höchstens %3. Prüfen Sie die Datei: Eine so lange Liste stammt nicht von Kiln Studio.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="158"/>
        <source>%1 names %2, which is a device or a pipe, not a file or folder; Kiln Studio does not read it (reading one may never end). Check where the project came from.</source>
        <translation>%1 nennt %2, ein Gerät oder eine Pipe, keine Datei und kein Ordner; Kiln Studio liest es nicht (das Lesen endet womöglich nie). Prüfen Sie, woher das Projekt stammt.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="182"/>
        <source>%1 is not a file; open a Kiln project (*.kiln).</source>
        <translation>%1 ist keine Datei; öffnen Sie ein Kiln-Projekt (*.kiln).</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="185"/>
        <source>%1 is %2 MB; a Kiln project is a few kilobytes of settings, so this is not one (Kiln Studio reads at most %3 MB).</source>
        <translation>%1 ist %2 MB groß; ein Kiln-Projekt umfasst wenige Kilobyte Einstellungen, dies ist also keines (Kiln Studio liest höchstens %3 MB).</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="193"/>
        <source>Cannot open %1: %2.</source>
        <translation>%1 kann nicht geöffnet werden: %2.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="198"/>
        <source>%1 is not a Kiln project: %2 at byte %3.</source>
        <translation>%1 ist kein Kiln-Projekt: %2 bei Byte %3.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="203"/>
        <source>%1 is not a Kiln project: it holds no JSON object.</source>
        <translation>%1 ist kein Kiln-Projekt: Es enthält kein JSON-Objekt.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="209"/>
        <source>%1 is not a Kiln project: it has no valid format_version.</source>
        <translation>%1 ist kein Kiln-Projekt: Es hat keine gültige format_version.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="212"/>
        <source>%1 was saved by a newer Kiln Studio (project format %2; this version reads up to %3). Update Kiln Studio to open it; the file is left as it is.</source>
        <translation>%1 wurde mit einem neueren Kiln Studio gespeichert (Projektformat %2; diese Version liest bis %3). Aktualisieren Sie Kiln Studio, um es zu öffnen; die Datei bleibt unverändert.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="309"/>
        <source>Add Dataset &quot;%1&quot;</source>
        <translation>Datensatz „%1“ hinzufügen</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="325"/>
        <source>Change Labels of &quot;%1&quot;</source>
        <translation>Annotationen von „%1“ ändern</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="334"/>
        <source>Remove Dataset &quot;%1&quot;</source>
        <translation>Datensatz „%1“ entfernen</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="134"/>
        <source>%1: dataset %2 has no path.</source>
        <translation>%1: Datensatz %2 hat keinen Pfad.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="281"/>
        <source>Cannot save %1: %2. The previous file, if any, is unchanged.</source>
        <translation>%1 kann nicht gespeichert werden: %2. Eine vorherige Datei bleibt unverändert.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ProjectController</name>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="73"/>
        <source>A job is running in this project; stop it (Run ▸ Stop) before opening or creating another project.</source>
        <translation>In diesem Projekt läuft ein Auftrag; stoppen Sie ihn (Ausführen ▸ Stopp), bevor Sie ein anderes Projekt öffnen oder anlegen.</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/project_controller.cpp" line="105"/>
        <source>and %Ln more</source>
        <translation>
            <numerusform>und %Ln weiterer</numerusform>
            <numerusform>und %Ln weitere</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="107"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation>Diese Datensatzordner des Projekts fehlen; schließen Sie das Laufwerk wieder an oder entfernen Sie sie aus dem Projekt:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="119"/>
        <location filename="../gui/app/project_controller.cpp" line="225"/>
        <source>Save Project</source>
        <translation>Projekt speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="120"/>
        <location filename="../gui/app/project_controller.cpp" line="257"/>
        <location filename="../gui/app/project_controller.cpp" line="265"/>
        <source>Kiln projects (*.kiln)</source>
        <translation>Kiln-Projekte (*.kiln)</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="139"/>
        <source>The project&apos;s runs stay in %1; the project refers to them there.</source>
        <translation>Die Läufe des Projekts bleiben in %1; das Projekt verweist dorthin.</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/project_controller.cpp" line="178"/>
        <source>Added %Ln dataset(s): %1</source>
        <translation>
            <numerusform>%Ln Datensatz hinzugefügt: %1</numerusform>
            <numerusform>%Ln Datensätze hinzugefügt: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="182"/>
        <source>already in the project: %1</source>
        <translation>schon im Projekt: %1</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="214"/>
        <source>The demo project could not be made:
%1</source>
        <translation>Das Demoprojekt konnte nicht angelegt werden:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="226"/>
        <source>The project has not been saved yet.</source>
        <translation>Das Projekt wurde noch nicht gespeichert.</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="229"/>
        <source>Save it now?</source>
        <translation>Jetzt speichern?</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="238"/>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="239"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation>Das Projekt „%1“ hat ungespeicherte Änderungen.</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="243"/>
        <source>Save them before going on?</source>
        <translation>Vor dem Fortfahren speichern?</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="256"/>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="265"/>
        <source>Save Project As</source>
        <translation>Projekt speichern unter</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="272"/>
        <source>Add Dataset Folder</source>
        <translation>Datensatzordner hinzufügen</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ProjectPages</name>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="41"/>
        <source>Datasets</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="50"/>
        <source>Run Configuration</source>
        <translation>Laufkonfiguration</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="52"/>
        <source>Live Plots</source>
        <translation>Live-Diagramme</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="53"/>
        <source>Run History</source>
        <translation>Laufverlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="54"/>
        <source>Embeddings</source>
        <translation>Einbettungen</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunComparisonDialog</name>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="49"/>
        <source>Compare Runs</source>
        <translation>Läufe vergleichen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="97"/>
        <source>Results</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="122"/>
        <source>Validation (last evaluation)</source>
        <translation>Validierung (letzte Auswertung)</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="71"/>
        <source>These runs are of different tasks: their validation metrics do not compare.</source>
        <translation>Diese Läufe gehören zu verschiedenen Aufgaben: ihre Validierungsmetriken sind nicht vergleichbar.</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="46"/>
        <source>Only differing settings</source>
        <translation>Nur abweichende Einstellungen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="149"/>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="77"/>
        <source>Hide the settings that every run shares</source>
        <translation>Einstellungen ausblenden, die alle Läufe teilen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="158"/>
        <source>(not set)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunConfigForm</name>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="309"/>
        <source>Advanced settings</source>
        <translation>Erweiterte Einstellungen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="329"/>
        <source>Batches summed into each optimizer step</source>
        <translation>Batches, die in jeden Optimiererschritt eingehen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="332"/>
        <source>the method&apos;s views; JSON to change them, e.g. {&quot;random_resize&quot;: {&quot;min_scale&quot;: 0.2}}</source>
        <translation>die Ansichten der Methode; JSON ändert sie, z. B. {&quot;random_resize&quot;: {&quot;min_scale&quot;: 0.2}}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="335"/>
        <source>transform_args besides the image size: random_resize, random_flip, color_jitter, random_gray_scale, gaussian_blur, normalize, and for DINO global_view_1, global_view_2, local_view. The Datasets tab previews the views.</source>
        <translation>transform_args außer der Bildgröße: random_resize, random_flip, color_jitter, random_gray_scale, gaussian_blur, normalize, und für DINO global_view_1, global_view_2, local_view. Der Reiter Datensätze zeigt die Ansichten.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="343"/>
        <source>each epoch</source>
        <translation>jede Epoche</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="344"/>
        <source> steps</source>
        <translation> Schritte</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="345"/>
        <source>last.ckpt is also written every this many steps</source>
        <translation>last.ckpt wird zusätzlich alle so vielen Schritte geschrieben</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="349"/>
        <source>off; a project name writes an offline W&amp;B run, for wandb sync</source>
        <translation>aus; ein Projektname schreibt einen Offline-W&amp;B-Lauf für wandb sync</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="358"/>
        <source>Augmentation</source>
        <translation>Augmentierung</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="363"/>
        <source>Weights &amp; Biases</source>
        <translation>Weights &amp; Biases</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="551"/>
        <source>%1 per 256 images, scaled with the batch size</source>
        <translation>%1 je 256 Bilder, mit der Batchgröße skaliert</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="554"/>
        <source>%1 (at most a tenth of the run)</source>
        <translation>%1 (höchstens ein Zehntel des Laufs)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1271"/>
        <source>by the dataset&apos;s size</source>
        <translation>nach der Größe des Datensatzes</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1284"/>
        <source>Augmentation takes a JSON object, e.g. {&quot;color_jitter&quot;: {&quot;prob&quot;: 0.5}}</source>
        <translation>Augmentierung erwartet ein JSON-Objekt, z. B. {&quot;color_jitter&quot;: {&quot;prob&quot;: 0.5}}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="196"/>
        <source>COCO annotation files</source>
        <translation>COCO-Annotationsdateien</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="197"/>
        <source>YOLO dataset (data.yaml)</source>
        <translation>YOLO-Datensatz (data.yaml)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="201"/>
        <source>data.yaml of an Ultralytics-layout dataset (images/ and labels/ beside it)</source>
        <translation>data.yaml eines Datensatzes im Ultralytics-Layout (images/ und labels/ daneben)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="274"/>
        <source>Labels</source>
        <translation>Beschriftungen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="275"/>
        <source>YOLO data</source>
        <translation>YOLO-Daten</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="243"/>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="213"/>
        <source>the teacher&apos;s exported model: a project run, or a .pt file</source>
        <translation>das exportierte Modell des Lehrers: ein Lauf des Projekts oder eine .pt-Datei</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="255"/>
        <source>Batch-norm statistics over all devices</source>
        <translation>Batch-Norm-Statistik über alle Geräte</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="257"/>
        <source>TensorBoard event files</source>
        <translation>TensorBoard-Ereignisdateien</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="262"/>
        <source>off; a folder or http(s):// server to log to MLflow</source>
        <translation>aus; ein Ordner oder http(s)://-Server für MLflow</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="265"/>
        <source>a new folder in the project&apos;s runs</source>
        <translation>ein neuer Ordner in den Läufen des Projekts</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="298"/>
        <source>Loggers</source>
        <translation>Logger</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="299"/>
        <source>MLflow</source>
        <translation>MLflow</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="244"/>
        <location filename="../gui/training/run_config_form.cpp" line="249"/>
        <location filename="../gui/training/run_config_form.cpp" line="253"/>
        <location filename="../gui/training/run_config_form.cpp" line="793"/>
        <source>auto</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="731"/>
        <location filename="../gui/training/run_config_form.cpp" line="1166"/>
        <source>Hold out 10% of the training images</source>
        <translation>10 % der Trainingsbilder zurückhalten</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="734"/>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="794"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="797"/>
        <source>CUDA %1: %2 (%3)</source>
        <translation>CUDA %1: %2 (%3)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="805"/>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="809"/>
        <source>No CUDA GPU is visible.</source>
        <translation>Keine CUDA-GPU sichtbar.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="810"/>
        <source>This Kiln&apos;s LibTorch has no CUDA.</source>
        <translation>Die LibTorch dieses Kiln hat kein CUDA.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="834"/>
        <source>float16 needs a CUDA GPU; on the CPU use the bf16 precisions.</source>
        <translation>float16 braucht eine CUDA-GPU; auf der CPU nehmen Sie die bf16-Genauigkeiten.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="837"/>
        <source>bfloat16 needs compute capability 8.0 or newer; %1 has %2.%3. Use 16-mixed.</source>
        <translation>bfloat16 braucht Compute Capability 8.0 oder neuer; %1 hat %2.%3. Nehmen Sie 16-mixed.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="549"/>
        <location filename="../gui/training/run_config_form.cpp" line="863"/>
        <source>auto (%1)</source>
        <translation>automatisch (%1)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="122"/>
        <source>Image classification (fine-tuning)</source>
        <translation>Bildklassifikation (Feinabstimmung)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="124"/>
        <source>Semantic segmentation (fine-tuning)</source>
        <translation>Semantische Segmentierung (Feinabstimmung)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="126"/>
        <source>Object detection (fine-tuning)</source>
        <translation>Objekterkennung (Feinabstimmung)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="128"/>
        <source>Instance segmentation (fine-tuning)</source>
        <translation>Instanzsegmentierung (Feinabstimmung)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="190"/>
        <source>COCO JSON of the training images&apos; objects</source>
        <translation>COCO-JSON mit den Objekten der Trainingsbilder</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="193"/>
        <source>COCO JSON of the validation images&apos; objects</source>
        <translation>COCO-JSON mit den Objekten der Validierungsbilder</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="280"/>
        <source>Training annotations</source>
        <translation>Trainingsannotationen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="281"/>
        <source>Validation annotations</source>
        <translation>Validierungsannotationen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="132"/>
        <source>Pretraining (self-supervised)</source>
        <translation>Vortraining (selbstüberwacht)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="184"/>
        <source>folder of PNG masks of class ids, named as the images</source>
        <translation>Ordner mit PNG-Masken der Klassen-IDs, benannt wie die Bilder</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="187"/>
        <source>folder of the validation images&apos; masks</source>
        <translation>Ordner mit den Masken der Validierungsbilder</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="204"/>
        <source>JSON file naming the class ids, e.g. classes.json</source>
        <translation>JSON-Datei mit den Namen der Klassen-IDs, z. B. classes.json</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="207"/>
        <source>random weights</source>
        <translation>zufällige Gewichte</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="215"/>
        <source>Labelled images (class folders) whose nearest neighbours classify the images below while pretraining: val_metric/knn_top1 shows whether pretraining pays, and picks best.ckpt.</source>
        <translation>Annotierte Bilder (Klassenordner), deren nächste Nachbarn während des Vortrainings die Bilder darunter klassifizieren: val_metric/knn_top1 zeigt, ob sich das Vortraining lohnt, und wählt best.ckpt.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="219"/>
        <source>Labelled images (class folders) classified by the kNN monitor.</source>
        <translation>Annotierte Bilder (Klassenordner), die der kNN-Monitor klassifiziert.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="231"/>
        <source>epochs</source>
        <translation>Epochen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="232"/>
        <source>steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="233"/>
        <source>minutes</source>
        <translation>Minuten</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="273"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="277"/>
        <source>Validation dataset</source>
        <translation>Validierungsdatensatz</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="278"/>
        <source>Training masks</source>
        <translation>Trainingsmasken</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="279"/>
        <source>Validation masks</source>
        <translation>Validierungsmasken</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="282"/>
        <source>Classes</source>
        <translation>Klassen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="325"/>
        <source>0: the backbone learns from the start</source>
        <translation>0: das Backbone lernt von Anfang an</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="327"/>
        <source>1: every backbone layer at the same rate</source>
        <translation>1: jede Backbone-Schicht mit derselben Rate</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="341"/>
        <source>the method&apos;s defaults; JSON to change them, e.g. {&quot;temperature&quot;: 0.2}</source>
        <translation>die Vorgaben der Methode; JSON, um sie zu ändern, z. B. {&quot;temperature&quot;: 0.2}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="360"/>
        <source>Method settings</source>
        <translation>Methodeneinstellungen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="556"/>
        <source>%1 of the learning rate</source>
        <translation>%1 der Lernrate</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1288"/>
        <source>Method settings take a JSON object, e.g. {&quot;temperature&quot;: 0.2}</source>
        <translation>Methodeneinstellungen sind ein JSON-Objekt, z. B. {&quot;temperature&quot;: 0.2}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1347"/>
        <source>These are the training images: validation would measure memory, not how the model does on new images. Hold out 10% instead.</source>
        <translation>Das sind die Trainingsbilder: Die Validierung würde das Gedächtnis messen, nicht wie das Modell mit neuen Bildern zurechtkommt. Halten Sie stattdessen 10 % zurück.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunController</name>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="102"/>
        <source>Training writes its runs beside the project file.</source>
        <translation>Das Training schreibt seine Läufe neben die Projektdatei.</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="152"/>
        <source>The project&apos;s run settings named TorchScript modules, which run code when loaded; Kiln loads one only where you choose it yourself. Choose it again in the form if you trust it:
%1</source>
        <translation>Die Laufeinstellungen des Projekts nannten TorchScript-Module, die beim Laden Code ausführen; Kiln lädt eines nur, wo Sie es selbst wählen. Wählen Sie es im Formular erneut, wenn Sie ihm vertrauen:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="158"/>
        <source>The project&apos;s run settings had values Kiln cannot use; the form shows the defaults instead:
%1</source>
        <translation>Die Laufeinstellungen des Projekts enthielten Werte, die Kiln nicht verwenden kann; das Formular zeigt stattdessen die Standardwerte:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="207"/>
        <source>This run cannot be resumed:
%1</source>
        <translation>Dieser Lauf kann nicht fortgesetzt werden:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="233"/>
        <source>The embeddings are written beside the project file.</source>
        <translation>Die Einbettungen werden neben die Projektdatei geschrieben.</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="244"/>
        <source>The model is written beside the project file.</source>
        <translation>Das Modell wird neben die Projektdatei geschrieben.</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="252"/>
        <source>Predictions are written beside the project file.</source>
        <translation>Vorhersagen werden neben die Projektdatei geschrieben.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunEstimate</name>
    <message numerus="yes">
        <location filename="../gui/app/run_estimate.cpp" line="118"/>
        <source>%Ln minute(s)</source>
        <translation>
            <numerusform>%Ln Minute</numerusform>
            <numerusform>%Ln Minuten</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="121"/>
        <source>%1 h %2 min</source>
        <translation>%1 Std. %2 Min.</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/run_estimate.cpp" line="123"/>
        <source>%Ln day(s)</source>
        <translation>
            <numerusform>%Ln Tag</numerusform>
            <numerusform>%Ln Tage</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/run_estimate.cpp" line="133"/>
        <source>Memory: a training step of %Ln sample(s) needs %1 to %2 on the CPU; %3 free.</source>
        <translation>
            <numerusform>Speicher: Ein Trainingsschritt mit %Ln Beispiel braucht %1 bis %2 auf der CPU; %3 frei.</numerusform>
            <numerusform>Speicher: Ein Trainingsschritt mit %Ln Beispielen braucht %1 bis %2 auf der CPU; %3 frei.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="185"/>
        <source>Estimated run time: about %1 (%2 images x %3 epochs at %4 images/s, the speed of run %5)</source>
        <translation>Geschätzte Laufzeit: etwa %1 (%2 Bilder x %3 Epochen bei %4 Bildern/s, dem Tempo des Laufs %5)</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="217"/>
        <source>Estimating the memory of a training step...</source>
        <translation>Der Speicherbedarf eines Trainingsschritts wird geschätzt...</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="239"/>
        <source>Train would stop before the first step: %1</source>
        <translation>Das Training würde vor dem ersten Schritt anhalten: %1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="253"/>
        <source>Estimated run time: about %1 (%2 images x %3 epochs at about %4 images/s, measured for %5 at %6 px on this computer&apos;s CPU, computing only; the first run&apos;s own speed replaces it)</source>
        <translation>Geschätzte Laufzeit: etwa %1 (%2 Bilder x %3 Epochen bei etwa %4 Bildern/s, gemessen für %5 bei %6 px auf der CPU dieses Computers, nur Rechenzeit; die Geschwindigkeit des ersten Laufs ersetzt sie)</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="264"/>
        <source>Timed at %1 px and scaled by the pixels.</source>
        <translation>Bei %1 px gemessen und nach der Pixelzahl hochgerechnet.</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="269"/>
        <source>Estimated run time: known once a run of %1 at %2 px has trained in this project</source>
        <translation>Geschätzte Laufzeit: bekannt, sobald in diesem Projekt ein Lauf von %1 mit %2 px trainiert hat</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="276"/>
        <source>Estimating the run time: measuring %1 at %2 px on this computer...</source>
        <translation>Laufzeit wird geschätzt: %1 bei %2 px wird auf diesem Computer gemessen...</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryModel</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>classification</source>
        <translation>Klassifikation</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>segmentation</source>
        <translation>Segmentierung</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>detection</source>
        <translation>Detektion</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>instance seg.</source>
        <translation>Instanzseg.</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="403"/>
        <source>Rename Run &quot;%1&quot;</source>
        <translation>Lauf „%1“ umbenennen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="403"/>
        <source>Edit Tags of &quot;%1&quot;</source>
        <translation>Schlagwörter von „%1“ bearbeiten</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="403"/>
        <source>Edit Notes of &quot;%1&quot;</source>
        <translation>Notizen von „%1“ bearbeiten</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp" line="113"/>
        <source>%Ln step(s)</source>
        <translation>
            <numerusform>%Ln Schritt</numerusform>
            <numerusform>%Ln Schritte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp" line="115"/>
        <source>%Ln epoch(s)</source>
        <translation>
            <numerusform>%Ln Epoche</numerusform>
            <numerusform>%Ln Epochen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="119"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="459"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="461"/>
        <source>Length</source>
        <translation>Länge</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="496"/>
        <source>Epochs or steps the run was set to train for</source>
        <translation>Epochen oder Schritte, für die der Lauf trainieren sollte</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="500"/>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="481"/>
        <source>Tags</source>
        <translation>Schlagwörter</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="473"/>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="475"/>
        <source>Best</source>
        <translation>Bester</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="479"/>
        <source>data_wait</source>
        <translation>data_wait</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="483"/>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="451"/>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="453"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="455"/>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="457"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="463"/>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="465"/>
        <source>LR</source>
        <translation>LR</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="467"/>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="469"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="471"/>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="492"/>
        <source>The run&apos;s name, or its folder&apos;s</source>
        <translation>Name des Laufs oder seines Ordners</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="494"/>
        <source>Pretraining method, or fine-tuning task</source>
        <translation>Vortrainingsmethode oder Feinabstimmungsaufgabe</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="498"/>
        <source>Image size in pixels</source>
        <translation>Bildgröße in Pixeln</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="502"/>
        <source>Training loss at the last step</source>
        <translation>Trainingsverlust im letzten Schritt</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="504"/>
        <source>Best value of the validation metric the run watched</source>
        <translation>Bester Wert der Validierungsmetrik, die der Lauf beobachtete</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="506"/>
        <source>Training images per second, median</source>
        <translation>Trainingsbilder pro Sekunde, Median</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="508"/>
        <source>Share of the time spent waiting for data, median</source>
        <translation>Anteil der Zeit, der auf Daten gewartet wurde, Median</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="477"/>
        <source>Images/s</source>
        <translation>Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="417"/>
        <source>Stopped</source>
        <translation>Gestoppt</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="420"/>
        <source>Finished</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="423"/>
        <source>Interrupted</source>
        <translation>Unterbrochen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="426"/>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="429"/>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryView</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="525"/>
        <source>Filter by name, tag, notes, model, dataset, status...</source>
        <translation>Nach Name, Schlagwort, Notiz, Modell, Datensatz, Status filtern...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="550"/>
        <source>The change could not be saved: %1</source>
        <translation>Die Änderung konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="832"/>
        <source>The runs could not be read: %1</source>
        <translation>Die Läufe konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="555"/>
        <source>Compare...</source>
        <translation>Vergleichen...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="557"/>
        <source>The selected runs&apos; settings, results and validation metrics side by side</source>
        <translation>Einstellungen, Ergebnisse und Validierungsmetriken der ausgewählten Läufe nebeneinander</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="592"/>
        <source>Curves of</source>
        <translation>Kurven von</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="552"/>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="535"/>
        <source>Double-click a run&apos;s name, tags or notes to edit them; right-click the header to choose the columns</source>
        <translation>Doppelklicken Sie auf Name, Schlagwörter oder Notizen eines Laufs, um sie zu bearbeiten; Rechtsklick auf die Kopfzeile wählt die Spalten</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="560"/>
        <source>Open Folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="563"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="565"/>
        <source>Continue an interrupted or stopped run from its last checkpoint</source>
        <translation>Einen unterbrochenen oder gestoppten Lauf ab seinem letzten Checkpoint fortsetzen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="575"/>
        <source>Delete Run...</source>
        <translation>Lauf löschen...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="600"/>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="609"/>
        <source>Select runs in the table to see their curves here.</source>
        <translation>Wählen Sie Läufe in der Tabelle, um hier ihre Kurven zu sehen.</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="610"/>
        <source>No runs in this project yet. The runs you train are listed here with their settings and results, to sort, compare, resume or export.</source>
        <translation>Noch keine Läufe in diesem Projekt. Die Läufe, die Sie trainieren, stehen hier mit ihren Einstellungen und Ergebnissen, zum Sortieren, Vergleichen, Fortsetzen oder Exportieren.</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp" line="844"/>
        <source>%Ln run database(s) could not be read, so their runs are not listed: %1</source>
        <translation>
            <numerusform>%Ln Laufdatenbank konnte nicht gelesen werden, ihre Läufe fehlen daher in der Liste: %1</numerusform>
            <numerusform>%Ln Laufdatenbanken konnten nicht gelesen werden, ihre Läufe fehlen daher in der Liste: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="905"/>
        <source>Delete Run</source>
        <translation>Lauf löschen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="906"/>
        <source>Delete the run in %1 with its checkpoints, exported models and logs? Other files in that folder are kept.</source>
        <translation>Den Lauf in %1 mit seinen Checkpoints, exportierten Modellen und Protokollen löschen? Andere Dateien in diesem Ordner bleiben erhalten.</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="928"/>
        <source>The run cannot be deleted:
%1</source>
        <translation>Der Lauf kann nicht gelöscht werden:
%1</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="937"/>
        <source>The run&apos;s files were deleted. %1 also held files no run wrote; they were kept.</source>
        <translation>Die Dateien des Laufs wurden gelöscht. %1 enthielt auch Dateien, die kein Lauf geschrieben hat; sie wurden behalten.</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="934"/>
        <source>Some files in %1 could not be deleted; check their permissions.</source>
        <translation>Einige Dateien in %1 konnten nicht gelöscht werden; prüfen Sie ihre Berechtigungen.</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="567"/>
        <source>Export Model...</source>
        <translation>Modell exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="569"/>
        <source>Write the run&apos;s model as ONNX, for ONNX Runtime and TensorRT</source>
        <translation>Das Modell des Laufs als ONNX schreiben, für ONNX Runtime und TensorRT</translation>
    </message>
</context>
<context>
    <name>kiln::gui::SettingsDialog</name>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="37"/>
        <source>auto (the size the model trained at)</source>
        <translation>automatisch (die Größe, mit der das Modell trainiert wurde)</translation>
    </message>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="38"/>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="48"/>
        <location filename="../gui/common/settings_dialog.cpp" line="86"/>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="135"/>
        <source>%1 already exists. Replace it?</source>
        <translation>%1 existiert bereits. Ersetzen?</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ShortcutsDialog</name>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="43"/>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="45"/>
        <source>Menu</source>
        <translation>Menü</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="45"/>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="45"/>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
</context>
<context>
    <name>kiln::gui::StartPage</name>
    <message>
        <location filename="../gui/app/start_page.cpp" line="20"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="21"/>
        <source>Pretrain backbones on your unlabelled images, fine-tune them on labelled ones, and watch where the time goes. Drop a folder of images here to start a project with it.</source>
        <translation>Trainieren Sie Backbones auf Ihren unbeschrifteten Bildern vor, stimmen Sie sie auf beschrifteten fein ab und sehen Sie, wohin die Zeit geht. Ziehen Sie einen Bilderordner hierher, um damit ein Projekt zu beginnen.</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="33"/>
        <source>New Project</source>
        <translation>Neues Projekt</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="35"/>
        <source>Open Project...</source>
        <translation>Projekt öffnen...</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="37"/>
        <source>Open Demo Project</source>
        <translation>Demoprojekt öffnen</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="39"/>
        <source>Fashion-MNIST as image folders, with settings that pretrain a small network in a few minutes on a CPU</source>
        <translation>Fashion-MNIST als Bildordner, mit Einstellungen, die ein kleines Netz in wenigen Minuten auf einer CPU vortrainieren</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="59"/>
        <source>&lt;b&gt;Recent projects&lt;/b&gt;</source>
        <translation>&lt;b&gt;Zuletzt verwendete Projekte&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="64"/>
        <source>Projects you open or save are listed here.</source>
        <translation>Hier erscheinen die Projekte, die Sie öffnen oder speichern.</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="91"/>
        <source>%1 (not found)</source>
        <translation>%1 (nicht gefunden)</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="109"/>
        <source>importing Fashion-MNIST: %1 of %2 images</source>
        <translation>Fashion-MNIST wird importiert: %1 von %2 Bildern</translation>
    </message>
</context>
<context>
    <name>kiln::gui::UserGuideDialog</name>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="17"/>
        <source>Kiln User Guide</source>
        <translation>Kiln-Benutzerhandbuch</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="24"/>
        <source>The user guide is missing from this build.</source>
        <translation>Das Benutzerhandbuch fehlt in diesem Build.</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="27"/>
        <source>Find in the guide (Enter: next)</source>
        <translation>Im Handbuch suchen (Eingabe: nächster Treffer)</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="31"/>
        <source>Find:</source>
        <translation>Suchen:</translation>
    </message>
</context>
</TS>
