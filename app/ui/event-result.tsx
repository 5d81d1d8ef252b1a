import { EVENT_OUTCOME_LABELS, needsAttention } from '../rules/event-outcomes'

/** What a provider event did, for operators: its outcome in words (marked when it needs a look) and why. */
export function EventResult({ outcome, summary }: { outcome: string; summary: string }) {
	return (
		<>
			<strong className={needsAttention(outcome) ? 'field-error' : undefined}>{EVENT_OUTCOME_LABELS[outcome] ?? outcome}</strong>
			<br />
			{summary}
		</>
	)
}
