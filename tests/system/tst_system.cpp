// Hardware probe and the automatic num_workers policy.

#include "core/error.h"
#include "core/log.h"
#include "core/parallel_for.h"
#include "system/bottleneck_advisor.h"
#include "system/hardware.h"
#include "system/heap_reuse.h"
#include "system/memory.h"
#include "system/num_workers.h"
#include "system/system_sampler.h"

#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using kiln::system::WorkerEnvironment;

Q_DECLARE_METATYPE(std::optional<int>)

class SystemTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void numWorkersPolicy_data() {
        QTest::addColumn<int>("cores");
        QTest::addColumn<int>("devices");
        QTest::addColumn<std::optional<int>>("slurmCpusPerTask");
        QTest::addColumn<std::optional<int>>("maxAuto");
        QTest::addColumn<int>("expected");

        const std::optional<int> unset;
        // (cores - devices) / devices, capped at 8.
        QTest::newRow("laptop, 2 cores") << 2 << 1 << unset << unset << 1;
        QTest::newRow("1 core leaves none") << 1 << 1 << unset << unset << 0;
        QTest::newRow("8 cores") << 8 << 1 << unset << unset << 7;
        QTest::newRow("64 cores capped") << 64 << 1 << unset << unset << 8;
        QTest::newRow("16 cores, 2 GPUs") << 16 << 2 << unset << unset << 7;
        QTest::newRow("16 cores, 4 GPUs") << 16 << 4 << unset << unset << 3;
        QTest::newRow("7 cores, 2 GPUs rounds down") << 7 << 2 << unset << unset << 2;
        QTest::newRow("more GPUs than cores") << 4 << 8 << unset << unset << 0;
        // KILN_MAX_NUM_WORKERS_AUTO replaces the cap of 8, in both directions.
        QTest::newRow("cap raised") << 64 << 1 << unset << std::optional<int>(32) << 32;
        QTest::newRow("cap raised, cores still limit")
            << 12 << 1 << unset << std::optional<int>(32) << 11;
        QTest::newRow("cap lowered") << 64 << 2 << unset << std::optional<int>(2) << 2;
        QTest::newRow("cap zero") << 64 << 1 << unset << std::optional<int>(0) << 0;
        // SLURM_CPUS_PER_TASK is the share of one task, which drives one device.
        QTest::newRow("slurm 10 per task") << 128 << 4 << std::optional<int>(10) << unset << 8;
        QTest::newRow("slurm 4 per task") << 128 << 4 << std::optional<int>(4) << unset << 3;
        QTest::newRow("slurm 1 per task") << 128 << 1 << std::optional<int>(1) << unset << 0;
        QTest::newRow("slurm and cap")
            << 128 << 2 << std::optional<int>(32) << std::optional<int>(16) << 16;
    }

    void numWorkersPolicy() {
        QFETCH(int, cores);
        QFETCH(int, devices);
        QFETCH(std::optional<int>, slurmCpusPerTask);
        QFETCH(std::optional<int>, maxAuto);
        QFETCH(int, expected);
        WorkerEnvironment environment;
        environment.slurm_cpus_per_task = slurmCpusPerTask;
        environment.max_workers_auto = maxAuto;
        QCOMPARE(kiln::system::auto_num_workers(cores, devices, environment), expected);
    }

    void environmentIsRead() {
        qputenv("SLURM_CPUS_PER_TASK", "6");
        qputenv("KILN_MAX_NUM_WORKERS_AUTO", "3");
        WorkerEnvironment environment = WorkerEnvironment::from_process();
        QCOMPARE(environment.slurm_cpus_per_task, std::optional<int>(6));
        QCOMPARE(environment.max_workers_auto, std::optional<int>(3));

        qunsetenv("SLURM_CPUS_PER_TASK");
        qunsetenv("KILN_MAX_NUM_WORKERS_AUTO");
        environment = WorkerEnvironment::from_process();
        QVERIFY(!environment.slurm_cpus_per_task);
        QVERIFY(!environment.max_workers_auto);
    }

    void badEnvironmentValuesAreNamed() {
        for (const char* value : {"many", "-1", "4x", "0"}) {
            qputenv("SLURM_CPUS_PER_TASK", value);
            try {
                WorkerEnvironment::from_process();
                QFAIL(qPrintable(QStringLiteral("accepted SLURM_CPUS_PER_TASK=%1").arg(value)));
            } catch (const kiln::Error& error) {
                QVERIFY(QString::fromUtf8(error.what())
                            .contains(QStringLiteral("SLURM_CPUS_PER_TASK")));
            }
        }
        qunsetenv("SLURM_CPUS_PER_TASK");
        qputenv("KILN_MAX_NUM_WORKERS_AUTO", "lots");
        QVERIFY_THROWS_EXCEPTION(kiln::Error, WorkerEnvironment::from_process());
        qunsetenv("KILN_MAX_NUM_WORKERS_AUTO");
    }

    void probeSeesThisMachine() {
        const kiln::system::HardwareInfo hardware = kiln::system::probe_hardware();
        QVERIFY(hardware.cpu_cores >= 1);
        QVERIFY(hardware.cpu_cores <= 4096);
        for (const kiln::system::GpuInfo& gpu : hardware.gpus) {
            QVERIFY(!gpu.name.empty());
        }
        if (!hardware.libtorch_has_cuda) {
            QVERIFY(!hardware.cuda_available());
        }
    }

    void advisorClassifiesScriptedRuns_data() {
        QTest::addColumn<QList<double>>("dataWaits");
        QTest::addColumn<QList<double>>("cpuUtils");
        QTest::addColumn<int>("expected");
        using kiln::system::Bottleneck;
        QTest::newRow("model-bound") << QList<double>{0.02, 0.05, 0.9, 0.03, 0.04}
                                     << QList<double>{0.95, 0.97, 0.96, 0.99, 0.98}
                                     << int(Bottleneck::Model); // one slow batch is not the median
        QTest::newRow("cpu-bound")
            << QList<double>{0.5, 0.6, 0.55, 0.45} << QList<double>{0.97, 0.99, 0.95, 0.96}
            << int(Bottleneck::DataloaderCpu);
        QTest::newRow("io-bound") << QList<double>{0.7, 0.8, 0.75} << QList<double>{0.2, 0.3, 0.25}
                                  << int(Bottleneck::DataloaderIo);
        QTest::newRow("at the thresholds")
            << QList<double>{0.10} << QList<double>{0.85} << int(Bottleneck::DataloaderCpu);
        QTest::newRow("just below")
            << QList<double>{0.0999} << QList<double>{0.8499} << int(Bottleneck::Model);
    }

    void advisorClassifiesScriptedRuns() {
        QFETCH(QList<double>, dataWaits);
        QFETCH(QList<double>, cpuUtils);
        QFETCH(int, expected);
        kiln::system::AdvisorWindow window;
        window.data_waits.assign(dataWaits.begin(), dataWaits.end());
        window.cpu_utils.assign(cpuUtils.begin(), cpuUtils.end());
        const auto advice = kiln::system::advise(window);
        QCOMPARE(int(advice.bottleneck), expected);
        QVERIFY(!advice.advice.empty());
        QVERIFY(advice.diagnosis.find(kiln::system::to_string(advice.bottleneck)) == 0);
        if (advice.bottleneck == kiln::system::Bottleneck::DataloaderCpu) {
            QVERIFY(advice.advice[0].find("kiln optimize-dataset") != std::string::npos);
        }
        if (advice.bottleneck == kiln::system::Bottleneck::Model) {
            QVERIFY(advice.advice[0].find("bf16-mixed") != std::string::npos);
        }
    }

    // A CPU-bound loader of tiny files (28 px PNGs) is never told to re-encode them.
    void advisorNeverReencodesTinyImages() {
        kiln::system::AdvisorWindow window;
        window.data_waits.assign(30, 0.6);
        window.cpu_utils.assign(30, 0.97);
        window.mean_image_bytes = 700;
        const auto tiny = kiln::system::advise(window);
        QCOMPARE(tiny.bottleneck, kiln::system::Bottleneck::DataloaderCpu);
        for (const std::string& line : tiny.advice) {
            QVERIFY2(line.find("optimize-dataset") == std::string::npos, line.c_str());
        }
        QVERIFY2(tiny.advice[0].find("already small (0.7 KB") != std::string::npos,
                 tiny.advice[0].c_str());
        window.mean_image_bytes = 300 * 1024; // photographs: re-encoding pays
        QVERIFY(kiln::system::advise(window).advice[0].find("kiln optimize-dataset") !=
                std::string::npos);
    }

    void advisorReportsGpuAndReadThroughput() {
        kiln::system::AdvisorWindow window;
        window.data_waits = {0.02, 0.03, 0.01};
        window.cpu_utils = {0.5, 0.5, 0.5};
        window.gpu_utils = {0.4, 0.5, 0.45};
        window.read_mb_per_second = 12.5;
        window.cuda = true;
        const auto model = kiln::system::advise(window);
        QCOMPARE(model.bottleneck, kiln::system::Bottleneck::Model);
        QVERIFY2(model.diagnosis.find("GPU 45%, reading 12.5 MB/s") != std::string::npos,
                 model.diagnosis.c_str());
        // A half-idle GPU in a model-bound run: bigger steps come first.
        QVERIFY(model.advice[0].find("batch_size") != std::string::npos);
        QVERIFY(model.advice[1].find("16-mixed") != std::string::npos);
        window.gpu_utils = {0.95};
        QVERIFY(kiln::system::advise(window).advice[0].find("mixed precision") !=
                std::string::npos);
        // Without NVML or on the CPU the GPU is not mentioned.
        window.gpu_utils.clear();
        window.read_mb_per_second = -1;
        QVERIFY(kiln::system::advise(window).diagnosis.find("GPU") == std::string::npos);
    }

    // Advice that is one setting names the value to try, from what the run was set to.
    void advisorNamesTheSettingsToTry() {
        kiln::system::AdvisorWindow window;
        window.data_waits = {0.02, 0.03, 0.01};
        window.cpu_utils = {0.5, 0.5, 0.5};
        window.gpu_utils = {0.4, 0.5, 0.45};
        window.cuda = true;
        window.settings = {"32-true", 128, 4, 16};
        auto advice = kiln::system::advise(window);
        QCOMPARE(advice.changes.size(), std::size_t(2));
        QCOMPARE(advice.changes[0].key, std::string("batch_size")); // as the sentences' order
        QCOMPARE(advice.changes[0].value, std::string("256"));
        QCOMPARE(advice.changes[1].key, std::string("precision"));
        QCOMPARE(advice.changes[1].value, std::string("bf16-mixed"));
        window.settings.precision = "bf16-mixed"; // nothing to change there
        window.gpu_utils = {0.95};
        QVERIFY(kiln::system::advise(window).changes.empty());
        // On a CPU, bf16-mixed is offered as a measurement, not as a change: emulated bfloat16
        // makes some models many times slower.
        window.cuda = false;
        window.gpu_utils.clear();
        window.settings.precision = "32-true";
        const auto on_cpu = kiln::system::advise(window);
        QVERIFY(on_cpu.changes.empty());
        QVERIFY(on_cpu.advice[0].find("try it for a few steps") != std::string::npos);
        // A CPU with bfloat16 instructions runs bf16-mixed natively: then it is a change.
        window.settings.cpu_bf16 = true;
        const auto on_bf16_cpu = kiln::system::advise(window);
        QCOMPARE(on_bf16_cpu.changes.size(), std::size_t(1));
        QCOMPARE(on_bf16_cpu.changes[0].value, std::string("bf16-mixed"));
        QVERIFY(on_bf16_cpu.advice[0].find("this CPU has bfloat16") != std::string::npos);
        // A run in mixed precision already is not told to use it.
        window.settings.precision = "bf16-mixed";
        for (const std::string& sentence : kiln::system::advise(window).advice) {
            QVERIFY2(sentence.find("precision=") == std::string::npos, sentence.c_str());
        }
        window.settings.precision = "32-true";
        window.settings.cpu_bf16 = false;
        window.cuda = true;
        window.gpu_utils = {0.95};
        // I/O-bound: more workers, never more than the cores.
        window.data_waits = {0.7, 0.8, 0.75};
        window.cpu_utils = {0.2, 0.3, 0.25};
        advice = kiln::system::advise(window);
        QCOMPARE(advice.bottleneck, kiln::system::Bottleneck::DataloaderIo);
        QCOMPARE(advice.changes.size(), std::size_t(1));
        QCOMPARE(advice.changes[0].key, std::string("num_workers"));
        QCOMPARE(advice.changes[0].value, std::string("8"));
        window.settings.num_workers = 12;
        QCOMPARE(kiln::system::advise(window).changes[0].value, std::string("16"));
        window.settings.num_workers = 16;
        QVERIFY(kiln::system::advise(window).changes.empty());
        // CPU-bound: the remedies are no single setting.
        window.cpu_utils = {0.97, 0.99, 0.98};
        QVERIFY(kiln::system::advise(window).changes.empty());
        // Unknown settings name no value.
        window.settings = {};
        window.cpu_utils = {0.2, 0.3, 0.25};
        QVERIFY(kiln::system::advise(window).changes.empty());
    }

    void cpuSamplerSeesWork() {
        kiln::system::SystemSampler sampler({}, std::chrono::milliseconds(50));
        std::atomic<bool> spin{true};
        std::thread busy([&] {
            volatile double x = 0;
            while (spin) {
                x = x + 1;
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(sampler.latest().process_util > 0.0, 5000);
        spin = false;
        busy.join();
        const auto sample = sampler.latest();
        QVERIFY(sample.system_util > 0.0 && sample.system_util <= 1.0);
        QVERIFY(sample.process_util <= 1.0);
        QVERIFY(sample.rss_mb > 1.0);
    }

    // NVML through the scripted fake library (tests/system/fake_nvml.cpp).
    void gpuMonitoringReadsNvml() {
        qputenv("KILN_NVML_LIBRARY", KILN_FAKE_NVML_PATH);
        qputenv("KILN_FAKE_NVML", "count=2;util=37,NOT_SUPPORTED;used=1024,3072;total=8192,16384");
        std::vector<std::string> warnings;
        const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& message) {
            if (level >= kiln::log::Level::Warning) {
                warnings.push_back(message);
            }
        });
        // CUDA reports bus ids with a 4-digit domain, NVML with 8: both name the same GPU.
        kiln::system::GpuSet gpus = kiln::system::gpus_at({"0000:02:00.0", "0000:01:00.0"});
        QVERIFY(gpus.nvml);
        QCOMPARE(gpus.devices.size(), std::size_t{2});
        QCOMPARE(gpus.devices[0].name, std::string("Fake GPU 1")); // CUDA's device 0
        QCOMPARE(gpus.devices[0].pci_bus_id, std::string("00000000:02:00.0"));
        const kiln::system::GpuSample second = gpus.nvml->sample(gpus.devices[0], 0);
        QVERIFY(!second.util_percent); // NOT_SUPPORTED: absent, and no warning
        QCOMPARE(second.memory_used_mb.value_or(-1), 3072.0);
        QCOMPARE(second.memory_total_mb.value_or(-1), 16384.0);
        const kiln::system::GpuSample first = gpus.nvml->sample(gpus.devices[1], 1);
        QCOMPARE(first.util_percent.value_or(-1), 37.0);
        QCOMPARE(first.memory_used_mb.value_or(-1), 1024.0);
        QVERIFY(warnings.empty());

        // The sampler thread passes them on.
        kiln::system::SystemSampler sampler(std::move(gpus), std::chrono::milliseconds(20));
        QTRY_VERIFY_WITH_TIMEOUT(sampler.latest().gpus.size() == 2, 5000);
        QCOMPARE(sampler.latest().gpus[1].util_percent.value_or(-1), 37.0);
    }

    void gpuMonitoringSurvivesErrors() {
        qputenv("KILN_NVML_LIBRARY", KILN_FAKE_NVML_PATH);
        std::vector<std::string> warnings;
        const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& message) {
            if (level >= kiln::log::Level::Warning) {
                warnings.push_back(message);
            }
        });
        // A lost GPU: each failing query is reported once, the values are absent.
        qputenv("KILN_FAKE_NVML", "util=GPU_IS_LOST;used=UNKNOWN");
        kiln::system::GpuSet gpus = kiln::system::gpus_at({"0000:01:00.0"});
        QCOMPARE(gpus.devices.size(), std::size_t{1});
        for (int i = 0; i < 3; ++i) {
            const kiln::system::GpuSample sample = gpus.nvml->sample(gpus.devices[0], 0);
            QVERIFY(!sample.util_percent && !sample.memory_used_mb);
        }
        QCOMPARE(warnings.size(), std::size_t{2});
        QVERIFY(QString::fromStdString(warnings[0]).contains("GPU_IS_LOST"));

        // An old driver without the v2 memory query: the v1 query answers.
        qputenv("KILN_FAKE_NVML", "v2=missing;used=512");
        gpus = kiln::system::gpus_at({"0000:01:00.0"});
        QCOMPARE(gpus.nvml->sample(gpus.devices[0], 0).memory_used_mb.value_or(-1), 512.0);

        // A bus id NVML does not know is left out with a warning.
        warnings.clear();
        QCOMPARE(kiln::system::gpus_at({"0000:07:00.0"}).devices.size(), std::size_t{0});
        QCOMPARE(warnings.size(), std::size_t{1});

        // No driver, or no library at all: no GPUs and not a word.
        warnings.clear();
        qputenv("KILN_FAKE_NVML", "init=DRIVER_NOT_LOADED");
        QVERIFY(!kiln::system::gpus_at({"0000:01:00.0"}).nvml);
        qputenv("KILN_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
        QVERIFY(!kiln::system::gpus_at({"0000:01:00.0"}).nvml);
        QVERIFY(warnings.empty());
        // A CPU run asks for no GPUs and does not load NVML.
        QVERIFY(!kiln::system::gpus_at({}).nvml);
        qunsetenv("KILN_NVML_LIBRARY");
        qunsetenv("KILN_FAKE_NVML");
    }

    // Which CPUs have bfloat16 instructions, from /proc/cpuinfo's flags (this machine's own
    // answer is whatever its CPU has; the parse is checked on texts).
    void cpuBf16IsReadFromTheFlags() {
        const std::string avx2 = "processor\t: 0\nflags\t\t: fpu sse2 avx2 fma avx512f\n"
                                 "bugs\t\t: spectre_v1\n";
        QVERIFY(!kiln::system::cpuinfo_has_bf16(avx2));
        QVERIFY(kiln::system::cpuinfo_has_bf16(
            "processor\t: 0\nflags\t\t: fpu avx512f avx512_bf16 avx512_vnni\n"));
        QVERIFY(kiln::system::cpuinfo_has_bf16("flags\t\t: sse2 amx_bf16 amx_tile\n"));
        QVERIFY(!kiln::system::cpuinfo_has_bf16("model name\t: avx512_bf16 in a name\n"));
        QVERIFY(!kiln::system::cpuinfo_has_bf16(""));
    }

    void bf16NeedsAmpere() {
        kiln::system::GpuInfo gpu;
        gpu.compute_major = 7;
        QVERIFY(!gpu.supports_bf16());
        gpu.compute_major = 8;
        QVERIFY(gpu.supports_bf16());
    }

    // The programs and the tests are linked with tcmalloc where the build found it: with
    // --as-needed a library none of whose symbols is named would be dropped.
    void mallocIsTcmallocWhereTheBuildFoundIt() {
#if defined(KILN_WITH_TCMALLOC)
        QVERIFY(kiln::system::malloc_is_tcmalloc());
#else
        QVERIFY(!kiln::system::malloc_is_tcmalloc());
#endif
    }

    // Memory a run freed is given back when its outermost scope ends (a job inside another, such
    // as the kNN monitor inside a training run, leaves that to the run), so Studio returns what
    // a run used. Under glibc's malloc a freed 64 MiB block also stays for the next step until
    // then (tcmalloc keeps freed memory by its own policy).
    void freedMemoryIsKeptForTheRunAndGivenBackAtItsEnd() {
        constexpr std::size_t kBlock = 64u << 20;
        const double resident_before = kiln::system::resident_mb();
        {
            const kiln::system::HeapReuseScope run;
            {
                const kiln::system::HeapReuseScope job_inside_the_run;
                char* block = static_cast<char*>(std::malloc(kBlock));
                QVERIFY(block != nullptr);
                std::memset(block, 1, kBlock);
                std::free(block);
            }
            if (!kiln::system::malloc_is_tcmalloc()) { // tcmalloc keeps what its policy keeps
                QVERIFY(kiln::system::resident_mb() > resident_before + 48); // for the next step
            }
        }
        QVERIFY(kiln::system::resident_mb() < resident_before + 16); // given back at the end
    }

    // The free memory a run is checked against: /proc/meminfo's MemAvailable, bounded by the
    // headroom of a cgroup limit (a container's), where the reclaimable file cache is free.
    void freeMemoryIsReadFromTheKernelAndTheCgroup() {
        const std::string meminfo = "MemTotal:       24683784 kB\nMemFree:         1000000 kB\n"
                                    "MemAvailable:   22101628 kB\nBuffers:           1 kB\n";
        QCOMPARE(*kiln::system::meminfo_available_mb(meminfo), 22101628 / 1024.0);
        QVERIFY(!kiln::system::meminfo_available_mb("MemTotal: 1 kB\n"));

        constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
        const std::string two_gib = std::to_string(static_cast<long long>(2 * kGiB));
        const std::string used = std::to_string(static_cast<long long>(1.5 * kGiB));
        QCOMPARE(*kiln::system::cgroup_headroom_mb(two_gib + "\n", used + "\n", ""), 512.0);
        // v2's inactive_file and v1's total_inactive_file are cache the kernel reclaims first.
        const std::string cache = std::to_string(static_cast<long long>(0.5 * kGiB));
        QCOMPARE(*kiln::system::cgroup_headroom_mb(two_gib, used,
                                                   "anon 1\ninactive_file " + cache + "\n"),
                 1024.0);
        QCOMPARE(*kiln::system::cgroup_headroom_mb(two_gib, used,
                                                   "cache 5\ntotal_inactive_file " + cache + "\n"),
                 1024.0);
        QCOMPARE(*kiln::system::cgroup_headroom_mb(used, two_gib, ""), 0.0); // over its limit
        QVERIFY(!kiln::system::cgroup_headroom_mb("max\n", used, ""));       // no limit
        QVERIFY(!kiln::system::cgroup_headroom_mb("", "", ""));              // no such group

#if defined(__linux__)
        const std::optional<double> available = kiln::system::available_memory_mb();
        QVERIFY(available && *available > 0);
#endif
    }

    // Studio runs jobs side by side (a training run and a dataset scan): a sink registered
    // within a job hears that job's lines, from the threads it starts too, and none of another
    // job's; one registered outside any job (the command line's) hears every line.
    void aJobsSinkHearsOnlyItsJob() {
        using Lines = std::vector<std::string>;
        const auto keep = [](Lines& lines) {
            return [&lines](kiln::log::Level, const std::string& text) { lines.push_back(text); };
        };
        Lines everything;
        Lines first;
        Lines second;
        const kiln::log::ScopedSink all(keep(everything));
        int first_id = 0;
        int seen_id = -1;
        std::thread first_job([&] {
            const kiln::log::JobScope job;
            first_id = job.job();
            seen_id = kiln::log::current_job();
            const kiln::log::ScopedSink sink(keep(first));
            kiln::log::warning("first");
            std::thread(kiln::log::for_this_job([] {
                kiln::log::warning("first's helper");
            })).join();
            // Each chunk waits for the other, so the helper thread runs one of them.
            std::atomic<int> started{0};
            kiln::parallel_for(2, 2, 1, [&started](std::size_t begin, std::size_t) {
                ++started;
                while (started < 2) {
                    std::this_thread::yield();
                }
                kiln::log::info("first's chunk " + std::to_string(begin));
            });
            std::thread([] { kiln::log::warning("no job's"); }).join();
            std::thread([&keep, &second] {
                const kiln::log::JobScope other;
                const kiln::log::ScopedSink sink(keep(second));
                kiln::log::warning("second");
            }).join();
        });
        first_job.join();
        QVERIFY(first_id != 0);
        QCOMPARE(seen_id, first_id);
        QCOMPARE(kiln::log::current_job(), 0);

        std::sort(first.begin(), first.end());
        QCOMPARE(first, (Lines{"first", "first's chunk 0", "first's chunk 1", "first's helper"}));
        QCOMPARE(second, Lines{"second"});
        QCOMPARE(everything.size(), std::size_t{6});
        QVERIFY(std::find(everything.begin(), everything.end(), "no job's") != everything.end());
    }

    void versionsAreKnown() {
        const kiln::system::LibraryVersions versions = kiln::system::library_versions();
        QVERIFY(
            QString::fromStdString(versions.libtorch).contains(QRegularExpression("^\\d+\\.\\d+")));
        QVERIFY(
            QString::fromStdString(versions.opencv).contains(QRegularExpression("^\\d+\\.\\d+")));
        QVERIFY(QString::fromStdString(versions.sqlite).contains(QRegularExpression("^3\\.")));
        QVERIFY(!versions.kiln.empty());
    }
};

QTEST_APPLESS_MAIN(SystemTest)
#include "tst_system.moc"
