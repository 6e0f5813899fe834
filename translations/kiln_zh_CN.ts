<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>kiln::config</name>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="85"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="94"/>
        <location filename="../engine/config/train_settings.cpp" line="101"/>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="119"/>
        <source>kNN monitor: labelled</source>
        <translation>kNN 监控：已标注</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="123"/>
        <source>kNN monitor: classified</source>
        <translation>kNN 监控：待分类</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="160"/>
        <source>Teacher</source>
        <translation>教师模型</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="174"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="194"/>
        <source>Start from</source>
        <translation>初始权重</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="296"/>
        <source>Train for</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="339"/>
        <source>Loader workers</source>
        <translation>加载线程数</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="341"/>
        <source>Accelerator</source>
        <translation>加速器</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="352"/>
        <source>Devices</source>
        <translation>设备数</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="358"/>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="372"/>
        <source>Sync batch norm</source>
        <translation>同步批归一化</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="380"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="386"/>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="423"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="426"/>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="429"/>
        <source>Warm-up epochs</source>
        <translation>预热轮数</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="455"/>
        <source>Backbone learning rate factor</source>
        <translation>骨干网络学习率系数</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="464"/>
        <source>Layer-wise rate decay</source>
        <translation>逐层学习率衰减</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="469"/>
        <source>Head-only epochs</source>
        <translation>仅训练头部的轮数</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="559"/>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="568"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="584"/>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="601"/>
        <source>Checkpoint every</source>
        <translation>检查点间隔</translation>
    </message>
    <message>
        <location filename="../engine/config/train_settings.cpp" line="649"/>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <location filename="../engine/config/command_settings.cpp" line="25"/>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
</context>
<context>
    <name>kiln::gui::AboutDialog</name>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="13"/>
        <source>About Kiln Studio</source>
        <translation>关于 Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="42"/>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>依据 GNU 通用公共许可证第 3 版或更高版本授权。</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="26"/>
        <source>A desktop workstation for pretraining, fine-tuning and embedding computer vision models, on CPUs and GPUs.</source>
        <translation>在 CPU 和 GPU 上预训练、微调和嵌入计算机视觉模型的桌面工作站。</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ActionManager</name>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="74"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="74"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="37"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="40"/>
        <source>&amp;New Project</source>
        <translation>新建项目(&amp;N)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="42"/>
        <source>&amp;Open Project...</source>
        <translation>打开项目(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="43"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="45"/>
        <source>Open &amp;Demo Project</source>
        <translation>打开演示项目(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="46"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="48"/>
        <source>Save &amp;As...</source>
        <translation>另存为(&amp;A)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="50"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation>添加数据集文件夹(&amp;D)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="52"/>
        <source>&amp;Export Embeddings...</source>
        <translation>导出嵌入(&amp;E)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="53"/>
        <source>Export &amp;Model...</source>
        <translation>导出模型(&amp;M)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="56"/>
        <source>&amp;Close Project</source>
        <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="57"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="63"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="66"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="69"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="74"/>
        <source>&amp;Preferences...</source>
        <translation>首选项(&amp;P)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="91"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="94"/>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="96"/>
        <source>&amp;Embed...</source>
        <translation>嵌入(&amp;E)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="99"/>
        <source>&amp;Predict...</source>
        <translation>预测(&amp;P)...</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="100"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="102"/>
        <source>&amp;Resume</source>
        <translation>继续(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="104"/>
        <source>Continue the project&apos;s last stopped run from its checkpoint</source>
        <translation>从检查点继续项目最近停止的运行</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="109"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="125"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="128"/>
        <source>&amp;Datasets</source>
        <translation>数据集(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="129"/>
        <source>Run &amp;Configuration</source>
        <translation>运行配置(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="130"/>
        <source>Live &amp;Plots</source>
        <translation>实时图表(&amp;P)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="131"/>
        <source>Run &amp;History</source>
        <translation>运行历史(&amp;H)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="132"/>
        <source>&amp;Embeddings</source>
        <translation>嵌入(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="138"/>
        <source>&amp;Full Screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="147"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="150"/>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="156"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="163"/>
        <source>&amp;About Kiln Studio</source>
        <translation>关于 Kiln Studio(&amp;A)</translation>
    </message>
    <message>
        <location filename="../gui/app/action_manager.cpp" line="169"/>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::AugmentationPreview</name>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="29"/>
        <source>Click for new random views</source>
        <translation>点击生成新的随机视图</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="93"/>
        <source>No readable image in this dataset to preview.</source>
        <translation>此数据集中没有可用于预览的可读图像。</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="94"/>
        <source>%1 cannot be read.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="112"/>
        <source>Original: %1 x %2 px</source>
        <translation>原图：%1 x %2 像素</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="124"/>
        <source>%1 x %2 px</source>
        <translation>%1 x %2 像素</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/augmentation_preview.cpp" line="126"/>
        <source>%Ln view(s) of %1 as %2 makes them; click for new ones.</source>
        <translation>
            <numerusform>%2 生成的 %1 的 %Ln 个视图；点击生成新的。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::BackgroundJob</name>
    <message numerus="yes">
        <location filename="../gui/common/background_job.cpp" line="82"/>
        <source>... and %Ln more warning(s).</source>
        <translation>
            <numerusform>……另有 %Ln 条警告。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::BarChart</name>
    <message numerus="yes">
        <location filename="../gui/common/bar_chart.cpp" line="27"/>
        <source>%Ln more</source>
        <translation>
            <numerusform>另外 %Ln 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::DatasetsPage</name>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="71"/>
        <source>No datasets yet.

Add a folder of images with Add Dataset Folder, or drop it here. Class folders, images with masks, and COCO or YOLO labels are recognised.</source>
        <translation>还没有数据集。

用“添加数据集文件夹”添加一个图像文件夹，或把它拖到这里。可识别类别文件夹、带掩码的图像以及 COCO 或 YOLO 标注。</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="78"/>
        <source>Add Dataset Folder...</source>
        <translation>添加数据集文件夹...</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="81"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="83"/>
        <source>Remove the selected dataset from the project; its files stay</source>
        <translation>从项目中移除所选数据集；其文件保留</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="89"/>
        <source>Optimize...</source>
        <translation>优化...</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="91"/>
        <source>Re-encode the selected dataset as JPEG or WebP at training size</source>
        <translation>将所选数据集按训练尺寸重新编码为 JPEG 或 WebP</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="108"/>
        <source>Select a dataset to see its images, labels and statistics.</source>
        <translation>选择一个数据集以查看其图像、标注和统计。</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="121"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;数据集&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="158"/>
        <source>Images without labels</source>
        <translation>无标注图像</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="159"/>
        <source>Class folders</source>
        <translation>类别文件夹</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="160"/>
        <source>Images with masks</source>
        <translation>带掩码的图像</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="161"/>
        <source>COCO annotations</source>
        <translation>COCO 标注</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="162"/>
        <source>YOLO dataset (data.yaml)</source>
        <translation>YOLO 数据集 (data.yaml)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="163"/>
        <source>What labels the dataset has: found when it was added; change it if Kiln guessed wrong</source>
        <translation>数据集的标注类型：添加时自动识别；若 Kiln 识别有误请更改</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="169"/>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="173"/>
        <source>Labels:</source>
        <translation>标注：</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="208"/>
        <source>Images by longest side</source>
        <translation>按最长边统计的图像</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="242"/>
        <source>Show labels</source>
        <translation>显示标注</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="249"/>
        <source>&lt;b&gt;Images&lt;/b&gt; (click one to preview its augmentations)</source>
        <translation>&lt;b&gt;图像&lt;/b&gt;（点击一张以预览其数据增强）</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="263"/>
        <location filename="../gui/datasets/datasets_page.cpp" line="419"/>
        <source>&lt;b&gt;Augmentations of %1&lt;/b&gt; (the Run Configuration&apos;s method)</source>
        <translation>&lt;b&gt;%1 的数据增强&lt;/b&gt;（运行配置中的方法）</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="349"/>
        <source>%1 - %2 (missing)</source>
        <translation>%1 - %2（缺失）</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="350"/>
        <source>%1 - %2</source>
        <translation>%1 - %2</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="396"/>
        <source>folder of PNG masks named as the images</source>
        <translation>与图像同名的 PNG 掩码文件夹</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="397"/>
        <source>COCO instances JSON</source>
        <translation>COCO 实例 JSON</translation>
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
        <translation>正在扫描 %1...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/datasets_page.cpp" line="432"/>
        <source>%Ln readable image(s), %1</source>
        <translation>
            <numerusform>%Ln 张可读图像，%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="434"/>
        <source>Formats: %1</source>
        <translation>格式：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/datasets_page.cpp" line="436"/>
        <source>%Ln unreadable file(s), left out of training:</source>
        <translation>
            <numerusform>%Ln 个无法读取的文件，训练时跳过：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="443"/>
        <source>under 256 px</source>
        <translation>小于 256 像素</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="443"/>
        <source>256-511 px</source>
        <translation>256-511 像素</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="443"/>
        <source>512-1023 px</source>
        <translation>512-1023 像素</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="444"/>
        <source>1024-2047 px</source>
        <translation>1024-2047 像素</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="444"/>
        <source>2048 px and more</source>
        <translation>2048 像素及以上</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="504"/>
        <source>objects in %1 images</source>
        <translation>个目标，分布于 %1 张图像</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="507"/>
        <source>images; %1 of the pixels</source>
        <translation>张图像；占像素的 %1</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="509"/>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="512"/>
        <source>Objects per class</source>
        <translation>每类目标数</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="512"/>
        <source>Images per class</source>
        <translation>每类图像数</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="520"/>
        <source>%1 classes, %2 of %3 images in class folders</source>
        <translation>%1 个类别，%3 张图像中有 %2 张位于类别文件夹</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="525"/>
        <source>%1 classes in the masks of %2 images; %3 images have no labelled pixel, %4 of the pixels are ignored (255)</source>
        <translation>%2 张图像的掩码中有 %1 个类别；%3 张图像没有已标注像素，%4 的像素被忽略（255）</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="533"/>
        <source>Training split: %1 objects of %2 classes in %3 images, %4 of them without objects. Box sizes: %5 small, %6 medium, %7 large (COCO&apos;s limits: 32 and 96 px)</source>
        <translation>训练集：%3 张图像中有 %2 个类别的 %1 个目标，其中 %4 张没有目标。框尺寸：%5 个小、%6 个中、%7 个大（COCO 的界限：32 和 96 像素）</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/datasets_page.cpp" line="549"/>
        <source>%Ln problem(s) with the labels, listed below; training refuses the dataset until they are fixed.</source>
        <translation>
            <numerusform>标注有 %Ln 个问题，见下方列表；修复之前训练会拒绝此数据集。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="601"/>
        <source>Folder of Masks</source>
        <translation>掩码文件夹</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="603"/>
        <source>COCO Annotations</source>
        <translation>COCO 标注</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="605"/>
        <source>COCO JSON (*.json)</source>
        <translation>COCO JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../gui/datasets/datasets_page.cpp" line="606"/>
        <source>YOLO data file (*.yaml *.yml)</source>
        <translation>YOLO 数据文件 (*.yaml *.yml)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::EmbeddingsPage</name>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="21"/>
        <source>Open Embeddings File...</source>
        <translation>打开嵌入文件...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="25"/>
        <source>Open Embeddings</source>
        <translation>打开嵌入</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="29"/>
        <source>Embeddings (*.csv *.pt *.npy)</source>
        <translation>嵌入 (*.csv *.pt *.npy)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="36"/>
        <source>Embeddings files exported or opened in this project</source>
        <translation>本项目中导出或打开的嵌入文件</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="40"/>
        <source>%1 is no longer there; export the embeddings again or open another file.</source>
        <translation>%1 已不存在；请重新导出嵌入或打开其他文件。</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="53"/>
        <source>Project embeddings:</source>
        <translation>项目嵌入：</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_page.cpp" line="98"/>
        <source>none yet: File ▸ Export Embeddings</source>
        <translation>暂无：文件 ▸ 导出嵌入</translation>
    </message>
</context>
<context>
    <name>kiln::gui::EmbeddingsView</name>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="1"/>
        <source>&lt;b&gt;Selected&lt;/b&gt; with the lasso</source>
        <translation>&lt;b&gt;套索选中&lt;/b&gt;的点</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="286"/>
        <source>first principal component</source>
        <translation>第一主成分</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="287"/>
        <source>second principal component</source>
        <translation>第二主成分</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="133"/>
        <source>Lasso</source>
        <translation>套索</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="136"/>
        <source>Drag around points to select them, instead of moving the plot</source>
        <translation>拖动圈选点，而不是移动图表</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="139"/>
        <source>Export Selection...</source>
        <translation>导出所选...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="143"/>
        <source>Copy Images to Folder...</source>
        <translation>复制图像到文件夹...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="146"/>
        <source>Copy the selected images, e.g. for a labelling tool</source>
        <translation>复制所选图像，例如供标注工具使用</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="148"/>
        <source>Select for Labelling...</source>
        <translation>选择待标注...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="150"/>
        <source>Pick the images that are worth labelling first: typical images of every cluster, or the most diverse ones</source>
        <translation>挑选最值得先标注的图像：每个簇的典型图像，或差异最大的图像</translation>
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
        <translation>嵌入的布局方式：PCA 立即完成；UMAP 和 t-SNE 让每张图像的近邻靠近并把聚类分开（大数据集需要几秒到几分钟）</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="171"/>
        <source>Reset View</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="173"/>
        <source>Show every point again after dragging or zooming (or double-click the plot)</source>
        <translation>拖动或缩放后重新显示所有点（或双击图表）</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="207"/>
        <source>&amp;Map:</source>
        <translation>映射(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="224"/>
        <source>&lt;p&gt;&lt;b&gt;No embeddings to show yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;File ▸ Export Embeddings writes them for a dataset with a trained model; Open Embeddings File below shows a file kiln embed wrote (CSV, torch or npy).&lt;/p&gt;&lt;p&gt;Each image becomes a point on a map, similar images close together: find near-duplicates and outliers, and pick the images worth labelling first.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;还没有可显示的嵌入。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;文件 ▸ 导出嵌入 会用已训练的模型为数据集写出嵌入；下方的“打开嵌入文件”可显示 kiln embed 写出的文件（CSV、torch 或 npy）。&lt;/p&gt;&lt;p&gt;每张图像成为地图上的一个点，相似的图像彼此靠近：可找出近似重复和离群图像，并挑选最值得先标注的图像。&lt;/p&gt;</translation>
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
        <translation>正在投影 %1...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="374"/>
        <source>%Ln other folder(s)</source>
        <translation>
            <numerusform>其他 %Ln 个文件夹</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="417"/>
        <source>%Ln embedding(s)</source>
        <translation>
            <numerusform>%Ln 个嵌入，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="419"/>
        <source>in %Ln group(s) by top-level folder.</source>
        <translation>
            <numerusform>按顶层文件夹分为 %Ln 组。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="545"/>
        <source>Picking %Ln image(s) to label...</source>
        <translation>
            <numerusform>正在挑选 %Ln 张待标注图像...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="569"/>
        <source>%Ln image(s) to label first (%1), highlighted</source>
        <translation>
            <numerusform>%Ln 张优先标注的图像（%1），已高亮</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="596"/>
        <source>&lt;b&gt;Nearest neighbours&lt;/b&gt; (click a point, or a thumbnail)</source>
        <translation>&lt;b&gt;最近邻&lt;/b&gt;（点击一个点或缩略图）</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="498"/>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="511"/>
        <source>Drag around points to select them.</source>
        <translation>拖动圈选点。</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="512"/>
        <source>%Ln point(s) selected</source>
        <translation>
            <numerusform>已选择 %Ln 个点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="572"/>
        <source>; %Ln labelled already or near-duplicates left out</source>
        <translation>
            <numerusform>；已排除 %Ln 张已标注图像或近似重复图像</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="602"/>
        <source>&lt;b&gt;To label first&lt;/b&gt;, in the order picked</source>
        <translation>&lt;b&gt;优先标注&lt;/b&gt;，按挑选顺序</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="632"/>
        <source>Copying %Ln image(s)...</source>
        <translation>
            <numerusform>正在复制 %Ln 张图像...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="650"/>
        <source>%Ln image(s) were not copied (already there, or unreadable), the first %1</source>
        <translation>
            <numerusform>%Ln 张图像未复制（已存在或无法读取），第一张为 %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="675"/>
        <source>Copy Images to Folder</source>
        <translation>复制图像到文件夹</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="660"/>
        <source>Copied %Ln image(s) to %1</source>
        <translation>
            <numerusform>已复制 %Ln 张图像到 %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="699"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="705"/>
        <source>Export Selection</source>
        <translation>导出所选</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="706"/>
        <source>Text files, one image a line (*.txt)</source>
        <translation>文本文件，每行一张图像 (*.txt)</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="712"/>
        <source>Wrote %Ln name(s) to %1</source>
        <translation>
            <numerusform>已将 %Ln 个名称写入 %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="732"/>
        <source>%1
selected</source>
        <translation>%1
已选择</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="261"/>
        <source>Loading and projecting %1...</source>
        <translation>正在加载并投影 %1...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="377"/>
        <source>(top folder)</source>
        <translation>（顶层文件夹）</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="385"/>
        <source>neighbours</source>
        <translation>近邻</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="393"/>
        <source>selection</source>
        <translation>所选</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ExportEmbeddingsDialog</name>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="35"/>
        <source>Export Embeddings</source>
        <translation>导出嵌入</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="48"/>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="66"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="67"/>
        <source>Kiln models (*.pt *.ckpt *.pth)</source>
        <translation>Kiln 模型 (*.pt *.ckpt *.pth)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="52"/>
        <source>no run has a model yet: Browse... for a model file</source>
        <translation>尚无带模型的运行：点击“浏览...”选择模型文件</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="68"/>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="69"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="70"/>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="71"/>
        <source>Write to</source>
        <translation>写入到</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="71"/>
        <source>Write the Embeddings to</source>
        <translation>嵌入写入到</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="72"/>
        <source>Embeddings (*.csv *.pt *.npy)</source>
        <translation>嵌入 (*.csv *.pt *.npy)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="73"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="103"/>
        <source>embeddings</source>
        <translation>embeddings</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ExportModelDialog</name>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="15"/>
        <source>Export Model</source>
        <translation>导出模型</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="26"/>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="28"/>
        <source>backbone</source>
        <translation>骨干网络</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="50"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="51"/>
        <source>Kiln models (*.ckpt *.pt *.pth)</source>
        <translation>Kiln 模型 (*.ckpt *.pt *.pth)</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="34"/>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="31"/>
        <source>no run has a checkpoint yet: Browse... for one</source>
        <translation>尚无带检查点的运行：点击“浏览...”选择检查点</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="35"/>
        <source>fp16 (half the size; for GPUs)</source>
        <translation>fp16（一半大小；用于 GPU）</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="39"/>
        <source>dynamic (any number of images)</source>
        <translation>动态（任意数量的图像）</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="43"/>
        <source>ONNX (opset 17) for ONNX Runtime and TensorRT. The model takes normalised RGB images; the file&apos;s metadata says how to prepare them and names the classes.</source>
        <translation>ONNX（opset 17），用于 ONNX Runtime 和 TensorRT。模型接收归一化的 RGB 图像；文件的元数据说明了如何预处理并列出类别名称。</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="52"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="53"/>
        <source>Batch</source>
        <translation>批量</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="54"/>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="55"/>
        <source>Write to</source>
        <translation>写入到</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="56"/>
        <source>Write the Model to</source>
        <translation>模型写入到</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="56"/>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX 模型 (*.onnx)</translation>
    </message>
    <message>
        <location filename="../gui/deploy/export_model_dialog.cpp" line="57"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>kiln::gui::JobController</name>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="41"/>
        <source>starting...</source>
        <translation>正在启动...</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="46"/>
        <source>embedding...</source>
        <translation>正在嵌入...</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="61"/>
        <source>The training stopped with an error:
%1</source>
        <translation>训练因错误而停止：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="69"/>
        <source>embedding: batch %1 of %2</source>
        <translation>嵌入中：第 %1/%2 批</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/job_controller.cpp" line="74"/>
        <source>Wrote %Ln embedding(s) of dimension %1 to %2.</source>
        <translation>
            <numerusform>已将 %Ln 个 %1 维嵌入写入 %2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/job_controller.cpp" line="79"/>
        <source>%Ln unreadable image(s) were left out.</source>
        <translation>
            <numerusform>有 %Ln 张无法读取的图像被跳过。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="88"/>
        <source>The embedding stopped with an error:
%1</source>
        <translation>嵌入因错误而停止：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="93"/>
        <source>The embedding was stopped; no file was written.</source>
        <translation>嵌入已停止；未写入任何文件。</translation>
    </message>
    <message>
        <location filename="../gui/app/job_controller.cpp" line="123"/>
        <source>epoch %1/%2, step %3/%4, loss %5, data_wait %6%, ETA %7</source>
        <translation>第 %1/%2 轮，第 %3/%4 步，损失 %5，data_wait %6%，剩余 %7</translation>
    </message>
</context>
<context>
    <name>kiln::gui::LabellingPickDialog</name>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="33"/>
        <source>Select for Labelling</source>
        <translation>选择待标注</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="66"/>
        <source>Typical: the most typical image of each cluster</source>
        <translation>典型：每个簇中最典型的图像</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="67"/>
        <source>Diverse: each image far from the others</source>
        <translation>多样：每张图像都远离其他图像</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="68"/>
        <source>Balanced: the same number from every cluster</source>
        <translation>均衡：每个簇数量相同</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="69"/>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="43"/>
        <source>none: a folder of labelled images, or a list</source>
        <translation>无：已标注图像的文件夹，或名称列表</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="56"/>
        <source>Folder...</source>
        <translation>文件夹...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="57"/>
        <source>List...</source>
        <translation>列表...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="57"/>
        <source>Names of the Labelled Images</source>
        <translation>已标注图像的名称</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="58"/>
        <source>Text files, one name a line (*.txt)</source>
        <translation>文本文件，每行一个名称 (*.txt)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="46"/>
        <source>Leave out near-duplicates</source>
        <translation>排除近似重复</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="38"/>
        <source>How many images to pick</source>
        <translation>要选择的图像数量</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="48"/>
        <source>Whiten the embeddings first</source>
        <translation>先对嵌入做白化（PCA）</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="52"/>
        <source>Images to label:</source>
        <translation>待标注图像：</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="53"/>
        <source>Strategy:</source>
        <translation>策略：</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="54"/>
        <source>Labelled already:</source>
        <translation>已标注：</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="56"/>
        <source>Labelled Images</source>
        <translation>已标注图像</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/labelling_pick_dialog.cpp" line="61"/>
        <source>Select</source>
        <translation>选择</translation>
    </message>
</context>
<context>
    <name>kiln::gui::LivePlots</name>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="1"/>
        <source>The run is starting: it reads its data and builds its model, and its first step is drawn here as soon as it is done.</source>
        <translation>运行正在启动：正在读取数据并构建模型，第一步完成后立即在此绘制。</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="121"/>
        <source>No GPU in this run: GPU utilisation and memory are not plotted.</source>
        <translation>本次运行没有 GPU：不绘制 GPU 利用率和显存。</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="126"/>
        <source>loss (smoothed)</source>
        <translation>损失（平滑）</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="142"/>
        <source>Smoothing of the loss, as TensorBoard&apos;s</source>
        <translation>损失的平滑，与 TensorBoard 相同</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="148"/>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="151"/>
        <source>Reset View</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="153"/>
        <source>Follow the run again after zooming or panning (or double-click a plot)</source>
        <translation>缩放或平移后重新跟随运行（或双击图表）</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="155"/>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="159"/>
        <source>Export Plots</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="160"/>
        <source>CSV of the values (*.csv);;PNG image (*.png)</source>
        <translation>数值 CSV (*.csv);;PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="175"/>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="275"/>
        <location filename="../gui/plots/live_plots.cpp" line="304"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="313"/>
        <source>Cannot write %1 as a PNG image.</source>
        <translation>无法将 %1 写为 PNG 图像。</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="82"/>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="372"/>
        <source>Validation (step %1: metrics being computed)</source>
        <translation>验证（第 %1 步：指标计算中）</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="82"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="50"/>
        <source>Nothing to plot yet: Run ▸ Train (Ctrl+R) starts a run of the Run Configuration, and its loss, speed and where the time goes are drawn here as it trains. A project opens with its last run here.</source>
        <translation>尚无可绘制的内容：运行 ▸ 训练（Ctrl+R）会按运行配置开始一次运行，训练时在此绘制其损失、速度和时间花在何处。打开项目时，这里显示其最近一次运行。</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="82"/>
        <source>learning rate</source>
        <translation>学习率</translation>
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
        <translation>CPU 利用率 (%)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="86"/>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="86"/>
        <source>this process</source>
        <translation>本进程</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="87"/>
        <source>GPU utilisation (%) and memory (MB)</source>
        <translation>GPU 利用率 (%) 和显存 (MB)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="88"/>
        <source>Images/s</source>
        <translation>图像/秒</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="88"/>
        <source>images/s</source>
        <translation>图像/秒</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="99"/>
        <location filename="../gui/plots/live_plots.cpp" line="110"/>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="134"/>
        <source>Over time instead of steps</source>
        <translation>按时间而非步数显示</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="205"/>
        <location filename="../gui/plots/live_plots.cpp" line="232"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="232"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="411"/>
        <source>GPU %1 utilisation</source>
        <translation>GPU %1 利用率</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="415"/>
        <source>GPU %1 memory</source>
        <translation>GPU %1 显存</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="486"/>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="488"/>
        <source>%1: loss %2, learning rate %3</source>
        <translation>%1：损失 %2，学习率 %3</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="494"/>
        <source>%1: data_wait %2%</source>
        <translation>%1：data_wait %2%</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="497"/>
        <source>%1: CPU %2%</source>
        <translation>%1：CPU %2%</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="500"/>
        <source>%1: %2 images/s</source>
        <translation>%1：%2 图像/秒</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="510"/>
        <source>evaluation after step %1: %2 %3%4</source>
        <translation>第 %1 步后的评估：%2 %3%4</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="516"/>
        <source>evaluation after step %1: %2 %3, validation loss %4%5</source>
        <translation>第 %1 步后评估：%2 %3，验证损失 %4%5</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="531"/>
        <source>GPU %1 %2, %3</source>
        <translation>GPU %1 %2，%3</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="533"/>
        <location filename="../gui/plots/live_plots.cpp" line="535"/>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="89"/>
        <location filename="../gui/plots/live_plots.cpp" line="371"/>
        <source>Validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="90"/>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="507"/>
        <source> (best)</source>
        <translation>（最佳）</translation>
    </message>
</context>
<context>
    <name>kiln::gui::LivePlotsPage</name>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="24"/>
        <source>Optimize Dataset...</source>
        <translation>优化数据集...</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="25"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="36"/>
        <source>Continue the run from its last checkpoint (Run ▸ Resume)</source>
        <translation>从最后一个检查点继续此运行（运行 ▸ 继续）</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="51"/>
        <source>Where the time went</source>
        <translation>时间花在哪里</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="125"/>
        <source>Optimize Dataset (the button below)</source>
        <translation>优化数据集（下方按钮）</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="154"/>
        <source>Finished after %Ln step(s).</source>
        <translation>
            <numerusform>%Ln 步后完成。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="155"/>
        <source>Stopped after %Ln step(s); it can be resumed.</source>
        <translation>
            <numerusform>%Ln 步后停止；可以继续。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="159"/>
        <source>Best %1: %2 at step %3 (checkpoints/best.ckpt).</source>
        <translation>最佳 %1：%2，在第 %3 步（checkpoints/best.ckpt）。</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="179"/>
        <source>Set %1 to %2</source>
        <translation>将%1设为 %2</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="181"/>
        <source>Changes the run configuration for the next run</source>
        <translation>为下一次运行更改运行配置</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots_page.cpp" line="209"/>
        <source>This run warned:</source>
        <translation>此次运行发出了警告：</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="218"/>
        <source>and %Ln more (see train.log in the run&apos;s folder)</source>
        <translation>
            <numerusform>以及另外 %Ln 条（见运行文件夹中的 train.log）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/live_plots_page.cpp" line="213"/>
        <source>(%Ln times)</source>
        <translation>
            <numerusform>（%Ln 次）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="39"/>
        <source>CPU: %Ln core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU：%Ln 个核心，无 CUDA GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="45"/>
        <source>CPU: %Ln core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU：%Ln 个核心，GPU：%1</numerusform>
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
        <translation>下一次运行的%1现为 %2。</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="228"/>
        <source>Looking for GPUs...</source>
        <translation>正在查找 GPU...</translation>
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
        <translation>记录了警告：“显示详细信息”中列出了它们。</translation>
    </message>
</context>
<context>
    <name>kiln::gui::MetricTitles</name>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="12"/>
        <source>validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="14"/>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="16"/>
        <source>top-1 accuracy</source>
        <translation>Top-1 准确率</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="18"/>
        <source>top-5 accuracy</source>
        <translation>Top-5 准确率</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="20"/>
        <source>top-1 accuracy, class mean</source>
        <translation>Top-1 准确率（类别平均）</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="21"/>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="23"/>
        <source>F1, class mean</source>
        <translation>F1（类别平均）</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="25"/>
        <source>precision, class mean</source>
        <translation>精确率（类别平均）</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="27"/>
        <source>recall, class mean</source>
        <translation>召回率（类别平均）</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="28"/>
        <source>mIoU</source>
        <translation>mIoU</translation>
    </message>
    <message>
        <location filename="../gui/plots/metric_titles.cpp" line="30"/>
        <source>pixel accuracy</source>
        <translation>像素准确率</translation>
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
        <translation>框 mAP</translation>
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
        <translation>正在导出模型...</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="60"/>
        <source>Exported the %1 (%2, %3 x %4 px) to %5.</source>
        <translation>已将 %1（%2，%3 x %4 像素）导出到 %5。</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="66"/>
        <source>Outputs: %1</source>
        <translation>输出：%1</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="68"/>
        <source>The model could not be exported:
%1</source>
        <translation>无法导出模型：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="86"/>
        <source>predicting...</source>
        <translation>正在预测...</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="92"/>
        <source>predicting: %1 of %2 images</source>
        <translation>正在预测：%2 张图像中的 %1 张</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/model_commands.cpp" line="96"/>
        <source>Predicted %Ln image(s) (%1) into %2.</source>
        <translation>
            <numerusform>已预测 %Ln 张图像（%1），写入 %2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/model_commands.cpp" line="101"/>
        <source>%Ln unreadable image(s) were left out.</source>
        <translation>
            <numerusform>有 %Ln 张无法读取的图像被跳过。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="112"/>
        <source>They cannot be shown here: %1</source>
        <translation>无法在此显示：%1</translation>
    </message>
    <message>
        <location filename="../gui/app/model_commands.cpp" line="116"/>
        <source>The prediction stopped with an error:
%1</source>
        <translation>预测因错误而停止：
%1</translation>
    </message>
</context>
<context>
    <name>kiln::gui::OptimizeDatasetDialog</name>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="82"/>
        <source>Estimating the copy&apos;s size...</source>
        <translation>正在估算副本大小...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="149"/>
        <source>%Ln file(s), %1; the copy: about %2 (estimated from %3 of them).</source>
        <translation>
            <numerusform>%Ln 个文件，%1；副本：约 %2（由其中 %3 个估算）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="156"/>
        <source>That is larger than the dataset: these images are already compact. Lower the quality, choose WebP, or keep them as they are.</source>
        <translation>这比数据集更大：这些图像已经很紧凑。请降低质量、选择 WebP，或保持原样。</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="161"/>
        <source>Optimize Anyway</source>
        <translation>仍然优化</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="30"/>
        <source>Optimize Dataset</source>
        <translation>优化数据集</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="39"/>
        <source>keep the size</source>
        <translation>保持原尺寸</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="40"/>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="46"/>
        <source>Decoding PNG and large images costs CPU in every epoch; JPEG or WebP at the training resolution costs far less.</source>
        <translation>解码 PNG 和大图像在每个轮次都会消耗 CPU；以训练分辨率保存的 JPEG 或 WebP 开销小得多。</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="60"/>
        <source>Source</source>
        <translation>源</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="61"/>
        <source>Destination</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="62"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="63"/>
        <source>Longest side at most</source>
        <translation>最长边不超过</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="64"/>
        <source>Quality</source>
        <translation>质量</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="66"/>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="161"/>
        <source>Optimize</source>
        <translation>优化</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="130"/>
        <source>The size could not be estimated: %1</source>
        <translation>无法估计大小：%1</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="190"/>
        <source>Optimizing...</source>
        <translation>正在优化...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="201"/>
        <source>Stopped after %Ln image(s).</source>
        <translation>
            <numerusform>处理 %Ln 张图像后已停止。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="202"/>
        <source>Wrote %Ln image(s): %1 became %2.</source>
        <translation>
            <numerusform>已写入 %Ln 张图像：%1 变为 %2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="207"/>
        <source>%Ln unreadable file(s) skipped.</source>
        <translation>
            <numerusform>跳过了 %Ln 个无法读取的文件。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::PerClassResults</name>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="30"/>
        <source>Accuracy</source>
        <translation>准确率</translation>
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
        <translation>AP (IoU 0.50-0.95)</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="119"/>
        <source>true %1, predicted %2: %3 of %4</source>
        <translation>真实 %1，预测 %2：%4 中的 %3</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="132"/>
        <source>Confusion matrix, validation at step %1 (rows: true class, columns: predicted)</source>
        <translation>混淆矩阵，第 %1 步的验证（行：真实类别，列：预测）</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="151"/>
        <source>Precision-recall at step %1 (select classes in the table to compare them)</source>
        <translation>第 %1 步的精确率-召回率（在表格中选择类别以比较）</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="209"/>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../gui/plots/per_class_results.cpp" line="225"/>
        <source>Per class, validation at step %1</source>
        <translation>按类别，第 %1 步的验证</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PrecisionRecallPlot</name>
    <message>
        <location filename="../gui/plots/precision_recall_plot.cpp" line="14"/>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../gui/plots/precision_recall_plot.cpp" line="15"/>
        <source>precision (IoU 0.5)</source>
        <translation>精确率（IoU 0.5）</translation>
    </message>
    <message>
        <location filename="../gui/plots/precision_recall_plot.cpp" line="59"/>
        <source>%1, AP50 %2</source>
        <translation>%1，AP50 %2</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictDialog</name>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="27"/>
        <location filename="../gui/predict/predict_dialog.cpp" line="63"/>
        <source>Predict</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="37"/>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="42"/>
        <source>no fine-tuning run yet: Browse... for a checkpoint</source>
        <translation>尚无微调运行：点击“浏览...”选择检查点</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="54"/>
        <location filename="../gui/predict/predict_dialog.cpp" line="55"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="55"/>
        <source>Kiln checkpoints (*.ckpt)</source>
        <translation>Kiln 检查点 (*.ckpt)</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="56"/>
        <source>Images to predict on</source>
        <translation>要预测的图像</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="57"/>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="60"/>
        <source>Write the Predictions to</source>
        <translation>预测写入到</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="61"/>
        <source>Results (*.csv *.json);;Any file or folder (*)</source>
        <translation>结果 (*.csv *.json);;任意文件或文件夹 (*)</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="51"/>
        <source>Also write the images with their detections drawn</source>
        <translation>同时写出绘制了检测结果的图像</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="56"/>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../gui/predict/predict_dialog.cpp" line="59"/>
        <source>Write to</source>
        <translation>写入到</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictionPreviewsView</name>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="49"/>
        <source>Predicted boxes scoring below this are not drawn</source>
        <translation>得分低于此值的预测框不绘制</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="53"/>
        <source>Score threshold:</source>
        <translation>得分阈值：</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="99"/>
        <source>&lt;b&gt;Predictions at step %1&lt;/b&gt;: each validation image&apos;s labels above, what the model made of it below</source>
        <translation>&lt;b&gt;第 %1 步的预测&lt;/b&gt;：上方为每张验证图像的标注，下方为模型的预测</translation>
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
真实：%2
预测：%3</translation>
    </message>
    <message>
        <location filename="../gui/plots/prediction_previews.cpp" line="230"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/prediction_previews.cpp" line="232"/>
        <source>%1
%Ln object(s), </source>
        <translation>
            <numerusform>%1
%Ln 个目标，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/plots/prediction_previews.cpp" line="233"/>
        <source>%Ln box(es) shown</source>
        <translation>
            <numerusform>显示 %Ln 个框</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictionTileModel</name>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="90"/>
        <location filename="../gui/predict/predictions_browser.cpp" line="170"/>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/predict/predictions_browser.cpp" line="97"/>
        <source>%Ln found</source>
        <translation>
            <numerusform>找到 %Ln 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/predict/predictions_browser.cpp" line="100"/>
        <source>%Ln labelled</source>
        <translation>
            <numerusform>标注 %Ln 个</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="109"/>
        <source>%1% of pixels wrong</source>
        <translation>%1% 的像素错误</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="115"/>
        <source>label: %1</source>
        <translation>标注：%1</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="118"/>
        <source>no prediction</source>
        <translation>无预测</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictionsBrowser</name>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="235"/>
        <source>Predictions</source>
        <translation>预测结果</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="237"/>
        <source>all classes</source>
        <translation>所有类别</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="250"/>
        <source>most confident first</source>
        <translation>置信度最高优先</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="251"/>
        <source>least confident first</source>
        <translation>置信度最低优先</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="254"/>
        <source>disagreeing with labels first</source>
        <translation>与标注不一致优先</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="256"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="275"/>
        <source>&amp;Class:</source>
        <translation>类别(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="276"/>
        <source>&amp;Score at least:</source>
        <translation>最低分数(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="277"/>
        <source>S&amp;ort by:</source>
        <translation>排序方式(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="282"/>
        <source>Dashed outlines are the dataset&apos;s labels.</source>
        <translation>虚线框为数据集的标注。</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="293"/>
        <source>The labels could not all be read:
%1</source>
        <translation>部分标注无法读取：
%1</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="302"/>
        <source>The prediction logged warnings:
%1</source>
        <translation>预测记录了警告：
%1</translation>
    </message>
    <message>
        <location filename="../gui/predict/predictions_browser.cpp" line="354"/>
        <source>%1 of %2 images</source>
        <translation>%1 / %2 张图像</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PreferencesDialog</name>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="53"/>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="56"/>
        <location filename="../gui/app/preferences_dialog.cpp" line="62"/>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="63"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="64"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="70"/>
        <source>A new language applies when Kiln Studio starts again.</source>
        <translation>新的语言将在 Kiln Studio 重新启动后生效。</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="73"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="74"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
</context>
<context>
    <name>kiln::gui::Project</name>
    <message>
        <location filename="../gui/project/project.cpp" line="106"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="124"/>
        <source>%1 lists %2 datasets; a project holds at most %3. Check the file: a list this long was not made by Kiln Studio.</source>
        <translation>%1 列出了 %2 个数据集；一个项目最多包含 %3 个。请检查该文件：这么长的列表不是 Kiln Studio 生成的。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="158"/>
        <source>%1 names %2, which is a device or a pipe, not a file or folder; Kiln Studio does not read it (reading one may never end). Check where the project came from.</source>
        <translation>%1 指向 %2，它是设备或管道，而不是文件或文件夹；Kiln Studio 不会读取它（读取可能永不结束）。请检查该项目的来源。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="182"/>
        <source>%1 is not a file; open a Kiln project (*.kiln).</source>
        <translation>%1 不是文件；请打开 Kiln 项目（*.kiln）。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="185"/>
        <source>%1 is %2 MB; a Kiln project is a few kilobytes of settings, so this is not one (Kiln Studio reads at most %3 MB).</source>
        <translation>%1 大小为 %2 MB；Kiln 项目只是几 KB 的设置，因此这不是项目（Kiln Studio 最多读取 %3 MB）。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="193"/>
        <source>Cannot open %1: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="198"/>
        <source>%1 is not a Kiln project: %2 at byte %3.</source>
        <translation>%1 不是 Kiln 项目：第 %3 字节处%2。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="203"/>
        <source>%1 is not a Kiln project: it holds no JSON object.</source>
        <translation>%1 不是 Kiln 项目：其中没有 JSON 对象。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="209"/>
        <source>%1 is not a Kiln project: it has no valid format_version.</source>
        <translation>%1 不是 Kiln 项目：没有有效的 format_version。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="212"/>
        <source>%1 was saved by a newer Kiln Studio (project format %2; this version reads up to %3). Update Kiln Studio to open it; the file is left as it is.</source>
        <translation>%1 由较新版本的 Kiln Studio 保存（项目格式 %2；此版本最多支持 %3）。请更新 Kiln Studio 后再打开；文件保持不变。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="309"/>
        <source>Add Dataset &quot;%1&quot;</source>
        <translation>添加数据集“%1”</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="325"/>
        <source>Change Labels of &quot;%1&quot;</source>
        <translation>更改“%1”的标注</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="334"/>
        <source>Remove Dataset &quot;%1&quot;</source>
        <translation>移除数据集“%1”</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="134"/>
        <source>%1: dataset %2 has no path.</source>
        <translation>%1：数据集 %2 没有路径。</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="281"/>
        <source>Cannot save %1: %2. The previous file, if any, is unchanged.</source>
        <translation>无法保存 %1：%2。原有文件（如有）保持不变。</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ProjectController</name>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="73"/>
        <source>A job is running in this project; stop it (Run ▸ Stop) before opening or creating another project.</source>
        <translation>此项目中有任务正在运行；请先停止它（运行 ▸ 停止），再打开或新建项目。</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/project_controller.cpp" line="105"/>
        <source>and %Ln more</source>
        <translation>
            <numerusform>还有 %Ln 个</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="107"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation>项目中的这些数据集文件夹不存在；请重新连接驱动器，或将它们从项目中移除：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="119"/>
        <location filename="../gui/app/project_controller.cpp" line="225"/>
        <source>Save Project</source>
        <translation>保存项目</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="120"/>
        <location filename="../gui/app/project_controller.cpp" line="257"/>
        <location filename="../gui/app/project_controller.cpp" line="265"/>
        <source>Kiln projects (*.kiln)</source>
        <translation>Kiln 项目 (*.kiln)</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="139"/>
        <source>The project&apos;s runs stay in %1; the project refers to them there.</source>
        <translation>项目的运行记录保留在 %1；项目会引用那里。</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/project_controller.cpp" line="178"/>
        <source>Added %Ln dataset(s): %1</source>
        <translation>
            <numerusform>已添加 %Ln 个数据集：%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="182"/>
        <source>already in the project: %1</source>
        <translation>已在项目中：%1</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="214"/>
        <source>The demo project could not be made:
%1</source>
        <translation>无法创建演示项目：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="226"/>
        <source>The project has not been saved yet.</source>
        <translation>项目尚未保存。</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="229"/>
        <source>Save it now?</source>
        <translation>现在保存吗？</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="238"/>
        <source>Unsaved Changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="239"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation>项目“%1”有未保存的更改。</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="243"/>
        <source>Save them before going on?</source>
        <translation>继续之前要保存吗？</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="256"/>
        <source>Open Project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="265"/>
        <source>Save Project As</source>
        <translation>项目另存为</translation>
    </message>
    <message>
        <location filename="../gui/app/project_controller.cpp" line="272"/>
        <source>Add Dataset Folder</source>
        <translation>添加数据集文件夹</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ProjectPages</name>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="41"/>
        <source>Datasets</source>
        <translation>数据集</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="50"/>
        <source>Run Configuration</source>
        <translation>运行配置</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="52"/>
        <source>Live Plots</source>
        <translation>实时图表</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="53"/>
        <source>Run History</source>
        <translation>运行历史</translation>
    </message>
    <message>
        <location filename="../gui/app/project_pages.cpp" line="54"/>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunComparisonDialog</name>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="49"/>
        <source>Compare Runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="97"/>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="122"/>
        <source>Validation (last evaluation)</source>
        <translation>验证（最后一次评估）</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="71"/>
        <source>These runs are of different tasks: their validation metrics do not compare.</source>
        <translation>这些运行属于不同的任务：它们的验证指标不可比较。</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="46"/>
        <source>Only differing settings</source>
        <translation>仅显示不同的设置</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="149"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="77"/>
        <source>Hide the settings that every run shares</source>
        <translation>隐藏所有运行共有的设置</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp" line="158"/>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunConfigForm</name>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="309"/>
        <source>Advanced settings</source>
        <translation>高级设置</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="329"/>
        <source>Batches summed into each optimizer step</source>
        <translation>每个优化器步骤累加的批次数</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="332"/>
        <source>the method&apos;s views; JSON to change them, e.g. {&quot;random_resize&quot;: {&quot;min_scale&quot;: 0.2}}</source>
        <translation>方法的视图；用 JSON 修改，例如 {&quot;random_resize&quot;: {&quot;min_scale&quot;: 0.2}}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="335"/>
        <source>transform_args besides the image size: random_resize, random_flip, color_jitter, random_gray_scale, gaussian_blur, normalize, and for DINO global_view_1, global_view_2, local_view. The Datasets tab previews the views.</source>
        <translation>除图像尺寸外的 transform_args：random_resize、random_flip、color_jitter、random_gray_scale、gaussian_blur、normalize，以及 DINO 的 global_view_1、global_view_2、local_view。数据集页可预览视图。</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="343"/>
        <source>each epoch</source>
        <translation>每轮</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="344"/>
        <source> steps</source>
        <translation> 步</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="345"/>
        <source>last.ckpt is also written every this many steps</source>
        <translation>每隔这么多步也写入 last.ckpt</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="349"/>
        <source>off; a project name writes an offline W&amp;B run, for wandb sync</source>
        <translation>关闭；填写项目名则写入离线 W&amp;B 运行，供 wandb sync 上传</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="358"/>
        <source>Augmentation</source>
        <translation>数据增强</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="363"/>
        <source>Weights &amp; Biases</source>
        <translation>Weights &amp; Biases</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="551"/>
        <source>%1 per 256 images, scaled with the batch size</source>
        <translation>每 256 张图像 %1，随批大小缩放</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="554"/>
        <source>%1 (at most a tenth of the run)</source>
        <translation>%1（最多为运行的十分之一）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1271"/>
        <source>by the dataset&apos;s size</source>
        <translation>随数据集大小而定</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1284"/>
        <source>Augmentation takes a JSON object, e.g. {&quot;color_jitter&quot;: {&quot;prob&quot;: 0.5}}</source>
        <translation>数据增强需要一个 JSON 对象，例如 {&quot;color_jitter&quot;: {&quot;prob&quot;: 0.5}}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="196"/>
        <source>COCO annotation files</source>
        <translation>COCO 标注文件</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="197"/>
        <source>YOLO dataset (data.yaml)</source>
        <translation>YOLO 数据集 (data.yaml)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="201"/>
        <source>data.yaml of an Ultralytics-layout dataset (images/ and labels/ beside it)</source>
        <translation>Ultralytics 布局数据集的 data.yaml（旁边有 images/ 和 labels/）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="274"/>
        <source>Labels</source>
        <translation>标注</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="275"/>
        <source>YOLO data</source>
        <translation>YOLO 数据</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="243"/>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="213"/>
        <source>the teacher&apos;s exported model: a project run, or a .pt file</source>
        <translation>教师的导出模型：项目中的一次运行，或 .pt 文件</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="255"/>
        <source>Batch-norm statistics over all devices</source>
        <translation>在所有设备上计算批归一化统计量</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="257"/>
        <source>TensorBoard event files</source>
        <translation>TensorBoard 事件文件</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="262"/>
        <source>off; a folder or http(s):// server to log to MLflow</source>
        <translation>关闭；填写文件夹或 http(s):// 服务器以记录到 MLflow</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="265"/>
        <source>a new folder in the project&apos;s runs</source>
        <translation>项目运行目录中的新文件夹</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="298"/>
        <source>Loggers</source>
        <translation>日志记录器</translation>
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
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="731"/>
        <location filename="../gui/training/run_config_form.cpp" line="1166"/>
        <source>Hold out 10% of the training images</source>
        <translation>留出 10% 的训练图像</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="734"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="794"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="797"/>
        <source>CUDA %1: %2 (%3)</source>
        <translation>CUDA %1：%2（%3）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="805"/>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="809"/>
        <source>No CUDA GPU is visible.</source>
        <translation>未检测到 CUDA GPU。</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="810"/>
        <source>This Kiln&apos;s LibTorch has no CUDA.</source>
        <translation>此 Kiln 的 LibTorch 不支持 CUDA。</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="834"/>
        <source>float16 needs a CUDA GPU; on the CPU use the bf16 precisions.</source>
        <translation>float16 需要 CUDA GPU；在 CPU 上请使用 bf16 精度。</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="837"/>
        <source>bfloat16 needs compute capability 8.0 or newer; %1 has %2.%3. Use 16-mixed.</source>
        <translation>bfloat16 需要计算能力 8.0 或更高；%1 为 %2.%3。请使用 16-mixed。</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="549"/>
        <location filename="../gui/training/run_config_form.cpp" line="863"/>
        <source>auto (%1)</source>
        <translation>自动 (%1)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="122"/>
        <source>Image classification (fine-tuning)</source>
        <translation>图像分类（微调）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="124"/>
        <source>Semantic segmentation (fine-tuning)</source>
        <translation>语义分割（微调）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="126"/>
        <source>Object detection (fine-tuning)</source>
        <translation>目标检测（微调）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="128"/>
        <source>Instance segmentation (fine-tuning)</source>
        <translation>实例分割（微调）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="190"/>
        <source>COCO JSON of the training images&apos; objects</source>
        <translation>训练图像目标的 COCO JSON</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="193"/>
        <source>COCO JSON of the validation images&apos; objects</source>
        <translation>验证图像目标的 COCO JSON</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="280"/>
        <source>Training annotations</source>
        <translation>训练标注</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="281"/>
        <source>Validation annotations</source>
        <translation>验证标注</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="132"/>
        <source>Pretraining (self-supervised)</source>
        <translation>预训练（自监督）</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="184"/>
        <source>folder of PNG masks of class ids, named as the images</source>
        <translation>类别 ID 的 PNG 掩码文件夹，文件名与图像相同</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="187"/>
        <source>folder of the validation images&apos; masks</source>
        <translation>验证图像的掩码文件夹</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="204"/>
        <source>JSON file naming the class ids, e.g. classes.json</source>
        <translation>命名类别 ID 的 JSON 文件，例如 classes.json</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="207"/>
        <source>random weights</source>
        <translation>随机权重</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="215"/>
        <source>Labelled images (class folders) whose nearest neighbours classify the images below while pretraining: val_metric/knn_top1 shows whether pretraining pays, and picks best.ckpt.</source>
        <translation>已标注图像（类别文件夹），预训练期间用其最近邻对下方图像分类：val_metric/knn_top1 显示预训练是否有效，并用于选择 best.ckpt。</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="219"/>
        <source>Labelled images (class folders) classified by the kNN monitor.</source>
        <translation>由 kNN 监控分类的已标注图像（类别文件夹）。</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="231"/>
        <source>epochs</source>
        <translation>轮</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="232"/>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="233"/>
        <source>minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="273"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="277"/>
        <source>Validation dataset</source>
        <translation>验证数据集</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="278"/>
        <source>Training masks</source>
        <translation>训练掩码</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="279"/>
        <source>Validation masks</source>
        <translation>验证掩码</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="282"/>
        <source>Classes</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="325"/>
        <source>0: the backbone learns from the start</source>
        <translation>0：骨干网络从一开始就学习</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="327"/>
        <source>1: every backbone layer at the same rate</source>
        <translation>1：骨干网络的每一层使用相同的学习率</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="341"/>
        <source>the method&apos;s defaults; JSON to change them, e.g. {&quot;temperature&quot;: 0.2}</source>
        <translation>方法的默认值；用 JSON 修改，例如 {&quot;temperature&quot;: 0.2}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="360"/>
        <source>Method settings</source>
        <translation>方法设置</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="556"/>
        <source>%1 of the learning rate</source>
        <translation>学习率的 %1</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1288"/>
        <source>Method settings take a JSON object, e.g. {&quot;temperature&quot;: 0.2}</source>
        <translation>方法设置须为 JSON 对象，例如 {&quot;temperature&quot;: 0.2}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="1347"/>
        <source>These are the training images: validation would measure memory, not how the model does on new images. Hold out 10% instead.</source>
        <translation>这些就是训练图像：验证只会衡量记忆，而不是模型在新图像上的表现。请改为留出 10%。</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunController</name>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="102"/>
        <source>Training writes its runs beside the project file.</source>
        <translation>训练会把运行结果写在项目文件旁边。</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="152"/>
        <source>The project&apos;s run settings named TorchScript modules, which run code when loaded; Kiln loads one only where you choose it yourself. Choose it again in the form if you trust it:
%1</source>
        <translation>项目的运行设置指定了 TorchScript 模块，加载时会执行其中的代码；Kiln 只加载您亲自选择的模块。如果您信任它，请在表单中重新选择：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="158"/>
        <source>The project&apos;s run settings had values Kiln cannot use; the form shows the defaults instead:
%1</source>
        <translation>项目的运行设置中有 Kiln 无法使用的值；表单改为显示默认值：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="207"/>
        <source>This run cannot be resumed:
%1</source>
        <translation>无法继续此运行：
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="233"/>
        <source>The embeddings are written beside the project file.</source>
        <translation>嵌入会写在项目文件旁边。</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="244"/>
        <source>The model is written beside the project file.</source>
        <translation>模型会写在项目文件旁边。</translation>
    </message>
    <message>
        <location filename="../gui/app/run_controller.cpp" line="252"/>
        <source>Predictions are written beside the project file.</source>
        <translation>预测结果会写在项目文件旁边。</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunEstimate</name>
    <message numerus="yes">
        <location filename="../gui/app/run_estimate.cpp" line="118"/>
        <source>%Ln minute(s)</source>
        <translation>
            <numerusform>%Ln 分钟</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="121"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/run_estimate.cpp" line="123"/>
        <source>%Ln day(s)</source>
        <translation>
            <numerusform>%Ln 天</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/run_estimate.cpp" line="133"/>
        <source>Memory: a training step of %Ln sample(s) needs %1 to %2 on the CPU; %3 free.</source>
        <translation>
            <numerusform>内存：包含 %Ln 个样本的训练步骤在 CPU 上需要 %1 到 %2；可用 %3。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="185"/>
        <source>Estimated run time: about %1 (%2 images x %3 epochs at %4 images/s, the speed of run %5)</source>
        <translation>预计运行时间：约 %1（%2 张图像 x %3 轮，按运行 %5 的速度 %4 张/秒）</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="217"/>
        <source>Estimating the memory of a training step...</source>
        <translation>正在估算一个训练步骤所需的内存...</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="239"/>
        <source>Train would stop before the first step: %1</source>
        <translation>训练会在第一步之前停止：%1</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="253"/>
        <source>Estimated run time: about %1 (%2 images x %3 epochs at about %4 images/s, measured for %5 at %6 px on this computer&apos;s CPU, computing only; the first run&apos;s own speed replaces it)</source>
        <translation>预计运行时间：约 %1（%2 张图像 x %3 个周期，约 %4 张/秒，为 %5 在 %6 px 下于本机 CPU 上测得，仅计算；首次运行的实际速度将取代它）</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="264"/>
        <source>Timed at %1 px and scaled by the pixels.</source>
        <translation>在 %1 px 下计时，并按像素数换算。</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="269"/>
        <source>Estimated run time: known once a run of %1 at %2 px has trained in this project</source>
        <translation>预计运行时间：待本项目中 %1（%2 像素）的一次运行训练后可知</translation>
    </message>
    <message>
        <location filename="../gui/app/run_estimate.cpp" line="276"/>
        <source>Estimating the run time: measuring %1 at %2 px on this computer...</source>
        <translation>正在估算运行时间：正在本机上测量 %1 在 %2 px 下的速度...</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryModel</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>classification</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>segmentation</source>
        <translation>分割</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>detection</source>
        <translation>检测</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="478"/>
        <source>instance seg.</source>
        <translation>实例分割</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="403"/>
        <source>Rename Run &quot;%1&quot;</source>
        <translation>重命名运行“%1”</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="403"/>
        <source>Edit Tags of &quot;%1&quot;</source>
        <translation>编辑“%1”的标签</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="403"/>
        <source>Edit Notes of &quot;%1&quot;</source>
        <translation>编辑“%1”的备注</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp" line="113"/>
        <source>%Ln step(s)</source>
        <translation>
            <numerusform>%Ln 步</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp" line="115"/>
        <source>%Ln epoch(s)</source>
        <translation>
            <numerusform>%Ln 轮</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="119"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="459"/>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="461"/>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="496"/>
        <source>Epochs or steps the run was set to train for</source>
        <translation>运行设定的训练轮数或步数</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="500"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="481"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="473"/>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="475"/>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="479"/>
        <source>data_wait</source>
        <translation>data_wait</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="483"/>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="451"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="453"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="455"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="457"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="463"/>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="465"/>
        <source>LR</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="467"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="469"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="471"/>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="492"/>
        <source>The run&apos;s name, or its folder&apos;s</source>
        <translation>运行的名称，或其文件夹的名称</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="494"/>
        <source>Pretraining method, or fine-tuning task</source>
        <translation>预训练方法或微调任务</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="498"/>
        <source>Image size in pixels</source>
        <translation>图像尺寸（像素）</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="502"/>
        <source>Training loss at the last step</source>
        <translation>最后一步的训练损失</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="504"/>
        <source>Best value of the validation metric the run watched</source>
        <translation>运行所监测验证指标的最佳值</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="506"/>
        <source>Training images per second, median</source>
        <translation>每秒训练图像数，中位数</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="508"/>
        <source>Share of the time spent waiting for data, median</source>
        <translation>等待数据的时间占比，中位数</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="477"/>
        <source>Images/s</source>
        <translation>图像/秒</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="417"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="420"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="423"/>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="426"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="429"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryView</name>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="525"/>
        <source>Filter by name, tag, notes, model, dataset, status...</source>
        <translation>按名称、标签、备注、模型、数据集、状态筛选...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="550"/>
        <source>The change could not be saved: %1</source>
        <translation>无法保存更改：%1</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="832"/>
        <source>The runs could not be read: %1</source>
        <translation>无法读取运行记录：%1</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="555"/>
        <source>Compare...</source>
        <translation>比较...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="557"/>
        <source>The selected runs&apos; settings, results and validation metrics side by side</source>
        <translation>并排显示所选运行的设置、结果和验证指标</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="592"/>
        <source>Curves of</source>
        <translation>曲线：</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="552"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="535"/>
        <source>Double-click a run&apos;s name, tags or notes to edit them; right-click the header to choose the columns</source>
        <translation>双击运行的名称、标签或备注进行编辑；右键单击表头选择列</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="560"/>
        <source>Open Folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="563"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="565"/>
        <source>Continue an interrupted or stopped run from its last checkpoint</source>
        <translation>从最后一个检查点继续被中断或停止的运行</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="575"/>
        <source>Delete Run...</source>
        <translation>删除运行...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="600"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="609"/>
        <source>Select runs in the table to see their curves here.</source>
        <translation>在表格中选择运行，即可在此查看其曲线。</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="610"/>
        <source>No runs in this project yet. The runs you train are listed here with their settings and results, to sort, compare, resume or export.</source>
        <translation>此项目尚无运行。您训练的运行会连同其设置和结果列在这里，可排序、比较、继续或导出。</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp" line="844"/>
        <source>%Ln run database(s) could not be read, so their runs are not listed: %1</source>
        <translation>
            <numerusform>%Ln 个运行数据库无法读取，因此其中的运行未列出：%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="905"/>
        <source>Delete Run</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="906"/>
        <source>Delete the run in %1 with its checkpoints, exported models and logs? Other files in that folder are kept.</source>
        <translation>删除 %1 中的运行及其检查点、导出的模型和日志？该文件夹中的其他文件会保留。</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="928"/>
        <source>The run cannot be deleted:
%1</source>
        <translation>无法删除该运行：
%1</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="937"/>
        <source>The run&apos;s files were deleted. %1 also held files no run wrote; they were kept.</source>
        <translation>运行的文件已删除。%1 中还有不是由运行写入的文件，它们已保留。</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="934"/>
        <source>Some files in %1 could not be deleted; check their permissions.</source>
        <translation>%1 中的部分文件无法删除；请检查其权限。</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="567"/>
        <source>Export Model...</source>
        <translation>导出模型...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="569"/>
        <source>Write the run&apos;s model as ONNX, for ONNX Runtime and TensorRT</source>
        <translation>将该运行的模型写为 ONNX，用于 ONNX Runtime 和 TensorRT</translation>
    </message>
</context>
<context>
    <name>kiln::gui::SettingsDialog</name>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="37"/>
        <source>auto (the size the model trained at)</source>
        <translation>自动（模型训练时的尺寸）</translation>
    </message>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="38"/>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="48"/>
        <location filename="../gui/common/settings_dialog.cpp" line="86"/>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <location filename="../gui/common/settings_dialog.cpp" line="135"/>
        <source>%1 already exists. Replace it?</source>
        <translation>%1 已存在。要替换吗？</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ShortcutsDialog</name>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="43"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="45"/>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="45"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp" line="45"/>
        <source>Keys</source>
        <translation>按键</translation>
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
        <translation>在未标注的图像上预训练骨干网络，在已标注的图像上微调，并查看时间花在哪里。把一个图像文件夹拖到这里即可用它新建项目。</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="33"/>
        <source>New Project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="35"/>
        <source>Open Project...</source>
        <translation>打开项目...</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="37"/>
        <source>Open Demo Project</source>
        <translation>打开演示项目</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="39"/>
        <source>Fashion-MNIST as image folders, with settings that pretrain a small network in a few minutes on a CPU</source>
        <translation>以图像文件夹形式的 Fashion-MNIST，其设置可在 CPU 上几分钟内预训练一个小型网络</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="59"/>
        <source>&lt;b&gt;Recent projects&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近的项目&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="64"/>
        <source>Projects you open or save are listed here.</source>
        <translation>您打开或保存的项目会列在这里。</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="91"/>
        <source>%1 (not found)</source>
        <translation>%1（未找到）</translation>
    </message>
    <message>
        <location filename="../gui/app/start_page.cpp" line="109"/>
        <source>importing Fashion-MNIST: %1 of %2 images</source>
        <translation>正在导入 Fashion-MNIST：%2 张图像中的 %1 张</translation>
    </message>
</context>
<context>
    <name>kiln::gui::UserGuideDialog</name>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="17"/>
        <source>Kiln User Guide</source>
        <translation>Kiln 用户指南</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="24"/>
        <source>The user guide is missing from this build.</source>
        <translation>此版本缺少用户指南。</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="27"/>
        <source>Find in the guide (Enter: next)</source>
        <translation>在指南中查找（回车：下一个）</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp" line="31"/>
        <source>Find:</source>
        <translation>查找：</translation>
    </message>
</context>
</TS>
