"""Compare the first output of two builds of the site, interleaved (an A/B benchmark).

Prints figures; asserts nothing. On a shared two-core machine the time to the first
output drifts by ±15 % from minute to minute, so two separate benchmark runs cannot
tell a 0.1 s change. This one serves two built sites side by side and alternates them,
run by run, each in a fresh browser profile (cold; warm from the HTTP cache; warm once
the service worker has stored the site), and reports the medians and the median of the
paired differences. Usage, e.g. for a change in the worker:

    git stash && SITE_URL=http://127.0.0.1:8765/ .venv/bin/mkdocs build -q -d /tmp/a
    git stash pop && SITE_URL=http://127.0.0.1:8765/ .venv/bin/mkdocs build -q -d /tmp/b
    .venv/bin/python benchmarks/bench_ab.py /tmp/a /tmp/b --pairs 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_site import first_output, open_profile  # noqa: E402
from tests.siteserver import StaticServer  # noqa: E402

STARTS = ("cold", "warm, HTTP cache", "warm, service worker")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", type=Path, help="the first built site")
    parser.add_argument("b", type=Path, help="the second built site")
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--page", default="erste-schritte/")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    servers = {
        "A": StaticServer(args.a, cache_seconds=600),
        "B": StaticServer(args.b, cache_seconds=600),
    }
    times: dict[tuple[str, str], list[float]] = {
        (site, start): [] for site in servers for start in STARTS
    }
    with sync_playwright() as playwright:
        for run in range(args.pairs):
            for site in ("A", "B") if run % 2 == 0 else ("B", "A"):
                with tempfile.TemporaryDirectory() as folder:
                    context = open_profile(playwright, folder)
                    for start in STARTS:
                        page = context.new_page()
                        times[(site, start)].append(
                            first_output(page, servers[site].url + args.page)
                        )
                        if start == "warm, HTTP cache":  # next: once the offline cache is complete
                            page.locator("html[data-lk-offline]").wait_for(
                                state="attached", timeout=60_000
                            )
                        page.close()
                    context.close()
    for server in servers.values():
        server.close()

    print(f"/{args.page}, {args.pairs} pairs, navigation -> first output")
    for start in STARTS:
        a, b = times[("A", start)], times[("B", start)]
        paired = statistics.median(y - x for x, y in zip(a, b, strict=True))
        print(
            f"{start}: A median {statistics.median(a):.3f} s, B median {statistics.median(b):.3f} s, "
            f"B - A paired median {paired * 1000:+.0f} ms"
        )


if __name__ == "__main__":
    main()
