import { Fragment } from 'react'

/**
 * An email address kept whole on a line when it fits; on a narrow screen it goes to a new line
 * only before its `@` or after a `.`, `-`, `_` or `+` of it, as addresses are set in print, never
 * inside one of its words.
 */
export function Email({ address }: { address: string }) {
	const parts = address.split(/(?<=[.\-_+])|(?=@)/)
	return (
		<span className="email">
			{parts.map((part, index) => (
				<Fragment key={index}>
					{index > 0 ? <wbr /> : null}
					<span>{part}</span>
				</Fragment>
			))}
		</span>
	)
}
