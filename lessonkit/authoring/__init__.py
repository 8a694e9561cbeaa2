"""What an author meets beyond the fences: the page rules, the author checks, ``check-page`` and
the error page under ``mkdocs serve``.
"""
