"""The evidence report: results/REPORT.md and results/report.html rebuilt from the result JSON files
(`pycontrol bench report`). model.py holds the rows, meta.py what every result file says about its run,
headlines.py one extractor per kind of result file, render.py the Markdown and HTML."""
