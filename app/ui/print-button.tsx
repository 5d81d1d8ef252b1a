import { useEffect, useState } from 'react'

/** "Print" once the page runs scripts (the browser's own print works without). */
export function PrintButton() {
	const [hydrated, setHydrated] = useState(false)
	useEffect(() => setHydrated(true), [])
	if (!hydrated) return <span className="hint">Print this page from your browser.</span>
	return (
		<button type="button" className="secondary" onClick={() => window.print()}>
			Print
		</button>
	)
}
