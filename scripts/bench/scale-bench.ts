import type { BudgetResult } from './budgets.ts';

export type ScaleFigures = { products: number };

export function scaleBudgets(_f: ScaleFigures, _conditions: string): BudgetResult[] {
  return [];
}
