import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js'
import { useMemo } from 'react'
import { Bar } from 'react-chartjs-2'
import {
  BUDGET_EMPTY_MESSAGES,
  creditHistoryChart,
  type CreditHistoryEntry,
} from '../../../domain/accountBudget.ts'
import { formatCredits, formatDate } from '../../../domain/units.ts'

ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend)

/** Bar colours of the team members, in legend order (distinct at 3:1 against white). */
const SERIES_COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d']

/** True when this browser gives canvases a 2D context (chart.js draws nothing without one). */
function canDrawCharts(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null
  } catch {
    return false
  }
}

/** A yyyy-MM-dd day as dd.MM.yyyy. */
function dayLabel(day: string): string {
  return formatDate(`${day}T12:00:00Z`)
}

/**
 * The credit history: credits consumed per day, stacked per team member when `groupByUser`
 * (CREDITS_VIEW_SEQUENCE_USERS). The same figures are in a table for screen readers.
 */
export function CreditHistoryChart({
  entries,
  groupByUser,
}: {
  entries: readonly CreditHistoryEntry[]
  groupByUser: boolean
}) {
  const chart = useMemo(() => creditHistoryChart(entries, groupByUser), [entries, groupByUser])
  const data = useMemo<ChartData<'bar', number[], string>>(
    () => ({
      labels: chart.days.map(dayLabel),
      datasets: chart.series.map((series, index) => ({
        label: series.label,
        data: series.credits,
        backgroundColor: SERIES_COLOURS[index % SERIES_COLOURS.length],
        stack: 'credits',
        maxBarThickness: 48,
      })),
    }),
    [chart],
  )
  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      animation: false,
      maintainAspectRatio: false,
      plugins: {
        legend: { display: groupByUser, position: 'bottom' },
        tooltip: {
          callbacks: {
            label: (item) =>
              `${item.dataset.label ?? ''}: ${formatCredits(Number(item.raw))} credits`,
          },
        },
      },
      scales: {
        x: { stacked: true },
        y: {
          stacked: true,
          beginAtZero: true,
          title: { display: true, text: 'Credits' },
          ticks: { callback: (value) => formatCredits(Number(value)) },
        },
      },
    }),
    [groupByUser],
  )
  if (chart.days.length === 0) return <p className="muted">{BUDGET_EMPTY_MESSAGES.chart}</p>
  const total = chart.series.reduce((sum, s) => sum + s.credits.reduce((a, b) => a + b, 0), 0)
  return (
    <>
      {canDrawCharts() && (
        <div className="budget-chart">
          <Bar
            data={data}
            options={options}
            role="img"
            aria-label={`Credits consumed per day: ${formatCredits(total)} credits over ${chart.days.length} days`}
          />
        </div>
      )}
      <table className="visually-hidden">
        <caption>Credits consumed per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {chart.series.map((series) => (
              <th key={series.label} scope="col">
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {chart.days.map((day, index) => (
            <tr key={day}>
              <th scope="row">{dayLabel(day)}</th>
              {chart.series.map((series) => (
                <td key={series.label}>{formatCredits(series.credits[index] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}
