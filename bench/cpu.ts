import fs from "node:fs";

/**
 * CPU time as Linux reports it in /proc, for benchmarks that say what bounds
 * a rate: a process's own time (all its threads) and the whole machine's.
 * Both count in clock ticks of 10 ms (USER_HZ, 100 on Linux); null where
 * /proc cannot be read.
 */
const TICK_MS = 10;

/** A process's CPU time so far (user and system, every thread), in ms. */
export function processCpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces) : utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** The machine's CPU time so far, summed over its cores, in ms: busy, and busy or idle. */
export function machineCpuMs(): { busy: number; total: number } | null {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
      .readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy: busy * TICK_MS, total: (busy + idle! + iowait!) * TICK_MS };
  } catch {
    return null;
  }
}
