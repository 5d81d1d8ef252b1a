import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'
import type { Flash } from '../rules/flash'

/**
 * A one-time notice after a save; announced to screen readers politely. It goes as soon as the
 * next form is sent [R130]: a refused submit (which, with JavaScript, leaves the root's data as it
 * was) must not show the earlier "saved" beside its error. A save that succeeds redirects, and the
 * new page's notice is a new object, shown again.
 */
export function FlashNotice({ flash }: { flash: Flash }) {
	const submitting = useNavigation().state === 'submitting'
	const [spent, setSpent] = useState<Flash | null>(null)
	useEffect(() => {
		if (submitting) setSpent(flash)
	}, [submitting, flash])
	if (submitting || spent === flash) return null
	return (
		<p className={`flash flash-${flash.kind}`} role="status" data-testid="flash">
			{flash.message}
		</p>
	)
}
