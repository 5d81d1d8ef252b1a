/** A one-time notice, as the root loader hands it over. */
export type Flash = { kind: 'success' | 'info'; message: string }

/** A one-time notice after a save; announced to screen readers politely. */
export function FlashNotice({ flash }: { flash: Flash }) {
	return (
		<p className={`flash flash-${flash.kind}`} role="status" data-testid="flash">
			{flash.message}
		</p>
	)
}
