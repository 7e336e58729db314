from pycontrol.metrics.cpuinfo import local_cpu_mhz, mhz_from_cpuinfo


def test_mean_frequency_of_the_listed_cpus():
    text = "processor\t: 0\ncpu MHz\t\t: 2000.000\nprocessor\t: 1\ncpu MHz\t\t: 3000.500\n"
    assert mhz_from_cpuinfo(text) == 2500.25


def test_no_frequency_lines_means_unknown(tmp_path):
    assert mhz_from_cpuinfo("processor : 0\nBogoMIPS : 48.00\n") is None
    assert local_cpu_mhz(tmp_path / "missing") is None
