"""Starting Java from Python: one place for the command line (the java binary, the classpath from the
build, JVM options), timeouts and what an exit code means (`command`), the project's classpaths
(`classpath`), and the long-lived planner process the controller plans with (`planner_process`)."""
