/*
 * Graph tiles hand their new points to their chart one tile per task: twelve chart.js updates in
 * one task took 75–110 ms on the bench (a main-thread long task at every 10 s refresh), one takes
 * about 8 ms (bench/browser/dashboard.bench.ts).
 */

const queue: (() => void)[] = []
let scheduled = false

function pump(): void {
  scheduled = false
  const job = queue.shift()
  job?.()
  if (queue.length > 0) schedule()
}

function schedule(): void {
  if (scheduled) return
  scheduled = true
  setTimeout(pump, 0)
}

/** Runs `job` in a task of its own after the jobs queued before it; returns a cancel. */
export function enqueueChartUpdate(job: () => void): () => void {
  queue.push(job)
  schedule()
  return () => {
    const index = queue.indexOf(job)
    if (index >= 0) queue.splice(index, 1)
  }
}
