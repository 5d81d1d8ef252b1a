import { Form } from 'react-router'

/**
 * One button posting `fields` to `?intent=<intent>` of this page (and `query`, such as the page of
 * a list the row is on): a row's action without JavaScript.
 */
export function RowButton({
	intent,
	fields,
	label,
	query,
	children,
}: {
	intent: string
	fields: Record<string, string>
	label: string
	query?: string
	children: React.ReactNode
}) {
	return (
		<Form method="post" action={`?intent=${intent}${query ? `&${query}` : ''}`}>
			{Object.entries(fields).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<button type="submit" className="secondary" aria-label={label}>
				{children}
			</button>
		</Form>
	)
}

/** Up and down buttons for a row of an ordered list: plain POST forms, so they work without JavaScript. */
export function MoveButtons({
	fields,
	first,
	last,
	title,
	intent = 'move',
	query,
}: {
	fields: Record<string, string>
	first: boolean
	last: boolean
	title: string
	intent?: string
	query?: string
}) {
	return (
		<>
			{(['up', 'down'] as const).map((direction) =>
				(direction === 'up' ? first : last) ? null : (
					<RowButton key={direction} intent={intent} fields={{ ...fields, direction }} label={`Move ${title} ${direction}`} query={query}>
						{direction === 'up' ? '↑' : '↓'}
					</RowButton>
				),
			)}
		</>
	)
}
