"""The ``ts-run`` fence: TypeScript whose output Node.js gives at build time.

The page's snippets are type-checked (``tsc --strict``) and run all at once before
the first block runs (one Node.js call, ``lessonkit.build.typescript``); the page shows
the code and Node's output, not editable.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from lessonkit.build import typescript
from lessonkit.build.blocks import TsBlock
from lessonkit.build.errors import LessonError
from lessonkit.build.render import highlight_typescript
from lessonkit.build.typescript import TsResult, check_types, run_typescript
from lessonkit.fences.kind import FenceKind, PageRun


class TsKind(FenceKind[TsBlock, TsResult]):
    def make(self, slot: int, line: int, src: str, options: dict[str, Any]) -> TsBlock:
        return TsBlock(slot=slot, line=line, code=src)

    def label(self, block: TsBlock, count: Callable[[str], int]) -> str:
        return "TypeScript"

    @classmethod
    async def prepare(cls, run: PageRun) -> None:
        """Run and type-check the page's TypeScript blocks (all at once: one Node.js call)."""
        blocks = [block for block in run.blocks if isinstance(block, TsBlock)]
        if not blocks:
            return
        snippets = [block.code for block in blocks]
        try:
            ran, types = run_typescript(snippets), check_types(snippets)
        except RuntimeError as exc:  # Node.js or tsc missing or broken: not the author's fault
            raise LessonError(run.path, blocks[0].line, str(exc)) from None
        run.prepared[cls.__name__] = {
            block.slot: TsResult(r.output, r.error, r.line, r.timeout, found)
            for block, r, found in zip(blocks, ran, types, strict=True)
        }

    async def run(self, block: TsBlock, run: PageRun) -> TsResult:
        results: dict[int, TsResult] = run.prepared[type(self).__name__]
        return results[block.slot]

    def check(self, block: TsBlock, result: TsResult, run: PageRun) -> None:
        """A ts-run block must type-check, end, and not throw."""
        path = run.path
        if result.type_errors:
            row, message = result.type_errors[0]
            more = len(result.type_errors) - 1
            rest = f" (und {more} weitere Typfehler)" if more else ""
            raise LessonError(
                path,
                block.line + row,
                f"Der TypeScript-Block hat einen Typfehler (tsc --strict): {message}{rest}",
            )
        if result.timeout:
            raise LessonError(
                path,
                block.line,
                f"{block.label} läuft länger als {typescript.TIME_LIMIT:g} s: Node.js wartet, "
                "bis nichts mehr geplant ist. Meist ein Timer, der zu spät feuert (ein "
                "`setTimeout` mit mehr als ein paar Sekunden), ein `setInterval` ohne "
                "`clearInterval`, ein Promise, das nie erfüllt wird, oder eine Schleife. Der "
                "Build hat den Block abgebrochen; kürze die Zeiten (die Ausgabe braucht keine "
                "echten Sekunden).",
            )
        if result.error:
            line = block.line + result.line if result.line else block.line
            raise LessonError(path, line, f"Der TypeScript-Block wirft in Node.js: {result.error}")

    def render(self, block: TsBlock, result: TsResult) -> str:
        """TypeScript code and the output Node.js gave for it (not editable in the page)."""
        output = (
            '<div class="lk-ts__head">Ausgabe mit Node.js</div>'
            '<pre class="lk-output__text"><span class="lk-stdout">'
            f"{escape(result.output)}</span></pre>"
            if result.output
            else ""
        )
        return (
            f'<div class="lk-ts" data-lk-ts>{highlight_typescript(block.code)}'
            f'<output class="lk-output">{output}</output></div>'
        )


#: The fence ``ts-run``.
TS_RUN = TsKind({})
