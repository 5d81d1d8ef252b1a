import { Link, useSearchParams } from 'react-router'

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
