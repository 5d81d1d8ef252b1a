/** Words for operators: what an event did (app/payments/events/apply.server.ts, docs/decisions/029). */
export const EVENT_OUTCOME_LABELS: Readonly<Record<string, string>> = {
	received: 'Received, being applied',
	applied: 'Applied',
	stale: 'Out of order / already applied',
	review: 'Held for review',
	conflict: 'Conflict: references disagree',
	unmatched: 'No matching order',
	ignored: 'Stored, no change',
	failed: 'Could not be applied',
}

/** Outcomes that left an Order unmoved for a reason an operator should look at. */
export const needsAttention = (outcome: string) => outcome === 'review' || outcome === 'conflict' || outcome === 'failed'
