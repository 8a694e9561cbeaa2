"""What ships to the browser: the kernel, the bridge, checks, challenges, the workbench, consoles,
the judging record and the standard library on demand (``lessonkit.build.assets`` packs this
folder with ``pysim`` for Pyodide). Nothing here imports the rest of lessonkit.
"""
