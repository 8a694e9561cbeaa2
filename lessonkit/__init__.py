"""lessonkit: the build side of the course.

Markdown fences for runnable cells, build-time execution and packaging of the
Python runtime for the browser. ``lessonkit.runtime.kernel`` is pure standard library:
it runs unchanged in CPython at build time and in Pyodide in the reader's browser,
so keep this ``__init__`` free of imports.
"""
