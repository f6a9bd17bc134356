/**
 * CPU time as Linux counts it (/proc): per thread of a process, and per process. Unlike event-loop utilisation,
 * which counts a thread busy while it waits for a core, it is the time each ran; time stolen by the hypervisor is
 * not in it, so it hardly moves with what else a shared machine runs. Empty or null elsewhere than on Linux.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** USER_HZ is 100 on Linux: /proc counts CPU time in ticks of 10 ms. */
const TICK_US = 1_000_000 / 100;

/** utime + stime of a /proc stat line, in microseconds (fields after the command name, which may hold spaces). */
export function statCpuUs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/** CPU time (user + system, microseconds) of each thread of a process (this one by default), by its thread id. */
export function threadCpuUs(pid: number | 'self' = 'self'): Map<number, number> {
  const times = new Map<number, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return times;
  }
  for (const task of tasks) {
    try {
      times.set(Number(task), statCpuUs(readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')));
    } catch {
      // the thread ended meanwhile
    }
  }
  return times;
}

/** CPU time (user + system, microseconds) of a process, all its threads, or null if unreadable (ended). */
export function processCpuUs(pid: number): number | null {
  try {
    return statCpuUs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
