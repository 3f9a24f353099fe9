/** What scripts measure of a process and its files: resident memory, CPU time, bytes on disk. */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Resident memory of a process from /proc: now and its peak (VmHWM), bytes. */
export function residentBytes(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024
  return { rss: field('VmRSS'), peak: field('VmHWM') }
}

/** CPU time of a process (user + system, all its threads), s: /proc/PID/stat at 100 ticks a second. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Samples a process's resident memory every 200 ms, keeping the peak of each named phase. */
export function memorySampler(pid: number) {
  const peaks = new Map<string, number>()
  let phase = 'start'
  const sample = () => {
    try {
      const { rss } = residentBytes(pid)
      peaks.set(phase, Math.max(peaks.get(phase) ?? 0, rss))
    } catch {
      // the process is gone
    }
  }
  const timer = setInterval(sample, 200)
  return {
    phase(name: string) {
      sample()
      phase = name
      sample()
    },
    peaks,
    stop: () => clearInterval(timer),
  }
}

/** Bytes of the files under a directory. */
export function directoryBytes(path: string): number {
  let total = 0
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name)
    total += entry.isDirectory() ? directoryBytes(full) : statSync(full).size
  }
  return total
}
