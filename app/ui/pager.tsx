import { Link, useLocation, useSearchParams } from 'react-router'

/**
 * Previous / next links of a paginated list, keeping the other query parameters (search,
 * filters). Shown only when there is more than one page, unless `always` (admin lists).
 */
export function Pager({
	page,
	pages,
	summary,
	labels = ['Previous', 'Next'],
	always = false,
}: {
	page: number
	pages: number
	summary?: string
	labels?: [string, string]
	always?: boolean
}) {
	const [params] = useSearchParams()
	if (pages <= 1 && !always) return null
	const to = (next: number) => `?${new URLSearchParams({ ...Object.fromEntries(params), page: String(next) })}`
	return (
		<nav className="pager" aria-label="Pages">
			{page > 1 ? <Link to={to(page - 1)}>{labels[0]}</Link> : null}
			<span>
				Page {page} of {pages}
				{summary ? ` · ${summary}` : ''}
			</span>
			{page < pages ? <Link to={to(page + 1)}>{labels[1]}</Link> : null}
		</nav>
	)
}

/**
 * "Newer" / "Older" links of a keyset list (app/data/keyset.ts), keeping the search and filters;
 * away from the top, "Newest" returns to it. A keyset page has no number: the summary says how
 * many rows the list holds.
 */
export function KeysetPager({ newer, older, summary }: { newer: string | null; older: string | null; summary: string }) {
	const [params] = useSearchParams()
	const { pathname } = useLocation()
	const to = (cursor: Record<string, string>) => {
		const kept = Object.fromEntries([...params].filter(([name]) => !['before', 'after', 'page'].includes(name)))
		const query = new URLSearchParams({ ...kept, ...cursor }).toString()
		return `${pathname}${query ? `?${query}` : ''}`
	}
	return (
		<nav className="pager" aria-label="Pages">
			{newer !== null ? (
				<>
					<Link to={to({})}>Newest</Link>
					<Link to={to({ after: newer })}>Newer</Link>
				</>
			) : null}
			<span>{summary}</span>
			{older !== null ? <Link to={to({ before: older })}>Older</Link> : null}
		</nav>
	)
}
