/**
 * Calendar dates (`YYYY-MM-DD`) in and out of Postgres DATE columns, which Prisma carries as
 * Date objects at UTC midnight. Only these two functions cross that boundary, always in UTC.
 */
export function dbDate(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00.000Z`);
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
