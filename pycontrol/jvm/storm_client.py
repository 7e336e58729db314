"""A Storm client's command line, as `storm jar` builds it: the topology jar first (Storm uploads it as
`storm.jar`), then client-only entries, Storm's worker libraries, the grouping and migration jars and the config dir."""

from __future__ import annotations

from pathlib import Path

from pycontrol.jvm.classpath import GROUPING_JAR, MIGRATION_JAR
from pycontrol.jvm.command import JavaCommand


def command(jar: Path, main_class: str, args: list[str] | tuple[str, ...], conf_dir: Path, dist: Path,
            storm_options: str | None = None, extra_cp: tuple[str, ...] = (), what: str = "") -> JavaCommand:
    """`storm_options`: Storm's -Dstorm.options value (k=v pairs, URL-encoded), when there are any."""
    options = ("-Xmx256m", f"-Dstorm.jar={jar}", f"-Dstorm.conf.file={conf_dir / 'storm.yaml'}")
    if storm_options:
        options += (f"-Dstorm.options={storm_options}",)
    cp = (str(jar), *extra_cp, f"{dist / 'storm' / 'lib-worker'}/*", str(dist / GROUPING_JAR),
          str(dist / MIGRATION_JAR), str(conf_dir))
    return JavaCommand(main_class, tuple(args), cp, options, what=what or main_class)
