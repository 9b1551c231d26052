import type { KeyPolicy } from "../caller";

/** The longest calendar month: usage kept this long holds every month's spend. */
export const MONTH_BUDGET_RETENTION_DAYS = 31;

/**
 * The warning for keys with a monthly budget when usage is kept too short to count a whole month
 * after a restart (budgets are rebuilt from the usage rows); undefined when there is nothing to say.
 */
export function shortRetentionWarning(keys: Array<{ name: string; policy: KeyPolicy }>, retentionDays: number): string | undefined {
  if (retentionDays >= MONTH_BUDGET_RETENTION_DAYS) return undefined;
  const budgeted = keys.filter((key) => key.policy.limits.monthlyTokens !== null).map((key) => key.name);
  if (budgeted.length === 0) return undefined;
  return (
    `[warn] usage is kept ${retentionDays} days (SVC_USAGE_RETENTION_DAYS), less than a month: after a restart the monthly budgets of ` +
    `${budgeted.join(", ")} count only the last ${retentionDays} days. Keep usage at least ${MONTH_BUDGET_RETENTION_DAYS} days.`
  );
}
