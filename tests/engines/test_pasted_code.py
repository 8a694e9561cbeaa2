"""Code pasted into a cell reaches no other origin in Firefox and WebKit either: Python's
worker is made from a `blob:` URL and inherits the page's `<meta>` policy there too
(tests/browser/test_pasted_code.py, over WebDriver). The other origin is a server on another
port of 127.0.0.1, which the engines' proxy does not see."""

from __future__ import annotations

from tests.engines.reader import Reader
from tests.siteserver import REACH_OUT, Elsewhere


def test_pasted_code_reaches_no_other_origin(reader: Reader) -> None:
    elsewhere = Elsewhere()
    try:
        reader.open("erste-schritte/")
        reader.session.wait_for(
            "return window.lessonkit && window.lessonkit.runtime.state === 'ready';",
            timeout=120,
            message="Python ready",
        )
        where = reader.python(REACH_OUT.format(u=elsewhere.url))
        assert where == "'blob'", where  # the worker runs from its blob
        assert elsewhere.reached == []
        assert reader.python("1 + 1") == "2"  # Python still answers
    finally:
        elsewhere.close()
