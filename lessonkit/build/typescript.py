"""Run and type-check the TypeScript of ``ts-run`` fences at build time.

The "Von JS/TS her gedacht" parts of a lesson show TypeScript beside Python.
Their output is produced by Node.js (types stripped by esbuild), never typed
by hand, and the test suite runs them again to check. Each snippet runs in a
Node.js process of its own until its event loop is empty (at most
``TIME_LIMIT`` seconds); ``check_types`` runs the project's ``tsc --strict``
over them, so a wrong type fails the build like a wrong value.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

RUNNER = Path(__file__).resolve().parents[1] / "node" / "run_ts.mjs"
ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
NODE_TYPES = ROOT / "node_modules" / "@types" / "node"

#: Seconds one snippet may run (timers included) before the build calls it endless.
TIME_LIMIT = 10

_DIAGNOSTIC = re.compile(r"^ts-run-(\d+)\.ts\((\d+),(\d+)\): error (TS\d+): (.*)$")


@dataclass(frozen=True)
class TsResult:
    output: str
    error: str | None
    line: int | None = None  # line in the snippet where the error was thrown
    timeout: bool = False  # still running after TIME_LIMIT seconds
    #: Type errors: (line in the snippet, "TS2322: …").
    type_errors: list[tuple[int, str]] = field(default_factory=list)


def run_typescript(snippets: list[str], time_limit: float | None = None) -> list[TsResult]:
    """Run each snippet as its own ES module, in its own Node.js process."""
    if not snippets:
        return []
    if time_limit is None:
        time_limit = TIME_LIMIT
    done = subprocess.run(
        ["node", str(RUNNER)],
        input=json.dumps({"snippets": snippets, "timeout": time_limit}),
        capture_output=True,
        text=True,
        cwd=ROOT,  # esbuild comes from the project's node_modules
        timeout=len(snippets) * (time_limit + 5) + 30,
    )
    if done.returncode != 0:
        raise RuntimeError(f"Node.js konnte die TypeScript-Blöcke nicht ausführen:\n{done.stderr}")
    return [
        TsResult(item["output"], item["error"], item["line"], item["timeout"])
        for item in json.loads(done.stdout)
    ]


_TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "lib": ["es2022"],
        "types": ["node"],
        "typeRoots": [str(NODE_TYPES.parent)],
        "skipLibCheck": True,
    }
}


def check_types(snippets: list[str]) -> list[list[tuple[int, str]]]:
    """``tsc --noEmit --strict`` over every snippet (each a module); type errors per snippet."""
    found: list[list[tuple[int, str]]] = [[] for _ in snippets]
    if not snippets:
        return found
    if not NODE_TYPES.is_dir() or not TSC.exists():
        raise RuntimeError(
            "Für die Typprüfung der ts-run-Blöcke fehlen typescript oder @types/node in "
            "node_modules: ./scripts/setup ausführen."
        )
    with tempfile.TemporaryDirectory(prefix="lessonkit-tsc-") as folder:
        files = []
        for index, code in enumerate(snippets):
            name = f"ts-run-{index}.ts"
            # ``export {}`` makes every snippet a module of its own (no shared globals);
            # it comes after the code, so line numbers stay the snippet's.
            Path(folder, name).write_text(f"{code}\nexport {{}};\n", encoding="utf-8")
            files.append(name)
        # The project's pinned npm packages (and their types) for snippets that import them.
        Path(folder, "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
        config = {**_TSCONFIG, "files": files}
        Path(folder, "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
        done = subprocess.run(
            [str(TSC), "-p", "tsconfig.json", "--pretty", "false"],
            capture_output=True,
            text=True,
            cwd=folder,
            timeout=120,
        )
    unknown = []
    for row in done.stdout.splitlines():
        match = _DIAGNOSTIC.match(row)
        if match:
            found[int(match[1])].append((int(match[2]), f"{match[4]}: {match[5]}"))
        elif row.strip() and not row.startswith(" "):
            unknown.append(row)
    if done.returncode != 0 and not any(found):
        raise RuntimeError("tsc konnte die ts-run-Blöcke nicht prüfen:\n" + "\n".join(unknown))
    return found
