from pycontrol.cli import run

run()
