"""The suite's streamparse topologies (Python components, declared with streamparse's Topology DSL).

Maven copies this package into the workloads jar under resources/topologies, which Storm's
supervisor extracts as every shell component's working directory; components run as
`<python> -m streamparse.run topologies.<module>.<Class>`. pycontrol exports a Topology class to a
JSON spec that the Java side (io.nonstopstorm.workloads.multilang) builds into a Storm topology.

Keep this module free of heavy imports: every component process imports it.
"""

# name -> (module, Topology class); `pycontrol topology submit NAME` finds Python topologies here.
TOPOLOGIES = {
    "wordcount-py": ("topologies.wordcount.topology", "WordCount"),
    "wordcount-heavy-py": ("topologies.wordcount.topology", "WordCountHeavy"),
    "wordcount-pyspout": ("topologies.wordcount.topology", "WordCountPythonSpout"),
    "wordcount-handoff-py": ("topologies.handoff.topology", "WordCountHandoff"),
    "linear-py": ("topologies.linear.topology", "Linear"),
    "micro-linear-py": ("topologies.microdag.topology", "MicroLinear"),
    "micro-diamond-py": ("topologies.microdag.topology", "MicroDiamond"),
    "micro-star-py": ("topologies.microdag.topology", "MicroStar"),
    # profiling harness of one micro-DAG task (pycontrol model build): source -> task -> sink
    "profile-xml-py": ("topologies.microdag.profile", "ProfileXml"),
    "profile-pi-py": ("topologies.microdag.profile", "ProfilePi"),
    "profile-filewrite-py": ("topologies.microdag.profile", "ProfileFileWrite"),
    "profile-blob-py": ("topologies.microdag.profile", "ProfileBlob"),
    "profile-table-py": ("topologies.microdag.profile", "ProfileTable"),
}
