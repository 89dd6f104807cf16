/**
 * "The last N months" of the table: from `to` minus N calendar months (UTC) to `to`. A day past
 * the end of the earlier month is clamped to its last day (March 31 minus one month is February
 * 28 or 29), as SQL's interval arithmetic does.
 */
export function monthsBefore(iso: string, months: number): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${iso}`);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  const timeOfDay = date.getTime() - Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
  return new Date(Date.UTC(year, month, day) + timeOfDay).toISOString();
}
