"""Tests that drive the built site in headless Chromium (``conftest.py`` marks each one
``browser``).

A lesson's file here (``test_lektion_*.py``) tests only what needs a browser on its pages: what
the pages' cells, consoles and exercises claim is checked without one
(tests/test_lesson_pages.py), their pictures on a phone in test_every_page.py."""
