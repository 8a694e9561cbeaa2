// Loaded with `node --import` before a `ts-run` snippet (lessonkit/node/run_ts.mjs).
// Every console method writes to stdout, so output keeps its order; an uncaught
// exception or unhandled rejection, also one that comes late from a timer, is
// reported on stderr as one marked JSON line and ends the process, as Node would.
import { format } from "node:util";

const write = (...args) => {
  process.stdout.write(`${format(...args)}\n`);
};
for (const name of ["log", "info", "warn", "error", "debug"]) {
  console[name] = write;
}

const report = (exc) => {
  const error =
    exc instanceof Error ? `${exc.name}: ${exc.message}` : `Wert geworfen: ${format(exc)}`;
  const stack = exc instanceof Error && typeof exc.stack === "string" ? exc.stack : "";
  process.stderr.write(`\n@@lessonkit-error@@${JSON.stringify({ error, stack })}\n`);
  process.exit(1);
};
process.on("uncaughtException", report);
process.on("unhandledRejection", report);
