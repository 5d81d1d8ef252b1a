import type { ReactNode } from 'react'
import { Form, Link, useSearchParams } from 'react-router'
import { KeysetPager, Pager } from './pager'

export type Column<T> = { header: string; cell(row: T): ReactNode }

/**
 * A Store Admin list page: heading (and its action), a search-and-status filter that works
 * without JavaScript, a table, an empty state and the pager. Orders and products share it.
 */
export function AdminList<T extends { id: string }>({
	heading,
	action,
	search,
	statuses,
	columns,
	rows,
	empty,
	pager,
	keep,
}: {
	heading: string
	action?: ReactNode
	search: { label: string; maxLength: number }
	/** The status filter; a list without statuses (customers) shows only the search. */
	statuses?: { values: readonly string[]; label(status: string): string }
	columns: Array<Column<T>>
	rows: T[]
	/** What an empty list says: `filtered` when a search or status is set. */
	empty(filtered: boolean): string
	/** Numbered pages, or "Newer" / "Older" links for a list that only grows (keyset). */
	pager: { page: number; pages: number; summary: string; labels?: [string, string] } | { newer: string | null; older: string | null; summary: string }
	/** Query parameters the filter form carries along (which of a page's lists is shown). */
	keep?: Record<string, string>
}) {
	const [params] = useSearchParams()
	return (
		<section>
			{action ? (
				<div className="toolbar">
					<h1>{heading}</h1>
					{action}
				</div>
			) : (
				<h1>{heading}</h1>
			)}
			<Form method="get" className="filters">
				{Object.entries(keep ?? {}).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<label>
					{search.label} <input type="search" name="q" defaultValue={params.get('q') ?? ''} maxLength={search.maxLength} />
				</label>
				{statuses ? (
					<label>
						Status{' '}
						<select name="status" defaultValue={params.get('status') ?? ''}>
							<option value="">All</option>
							{statuses.values.map((status) => (
								<option key={status} value={status}>
									{statuses.label(status)}
								</option>
							))}
						</select>
					</label>
				) : null}
				<button type="submit" className="secondary">
					Filter
				</button>
			</Form>
			{rows.length === 0 ? (
				<p className="empty-state">{empty(Boolean(params.get('q') || params.get('status')))}</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							{columns.map((column) => (
								<th key={column.header}>{column.header}</th>
							))}
						</tr>
					</thead>
					<tbody>
						{rows.map((row) => (
							<tr key={row.id}>
								{columns.map((column) => (
									<td key={column.header} data-label={column.header}>
										{column.cell(row)}
									</td>
								))}
							</tr>
						))}
					</tbody>
				</table>
			)}
			{'page' in pager ? <Pager {...pager} always /> : <KeysetPager {...pager} />}
		</section>
	)
}

/**
 * Links to a Store Admin list's states, each with its count and the current one marked; `all`
 * adds a first link with no filter. Email, newsletter and reviews share it.
 */
export function StateLinks<S extends string>({
	path,
	param,
	states,
	current,
	counts,
	all = false,
	children,
}: {
	path: string
	param: string
	states: readonly S[]
	current: S | null
	counts: Partial<Record<S, number>>
	all?: boolean
	children?: ReactNode
}) {
	return (
		<p>
			{all ? (
				<Link to={path} aria-current={current === null ? 'page' : undefined}>
					All
				</Link>
			) : null}
			{states.map((s, i) => (
				<span key={s}>
					{all || i > 0 ? ' · ' : ''}
					<Link to={`${path}?${param}=${s}`} aria-current={s === current ? 'page' : undefined}>
						{s} ({counts[s] ?? 0})
					</Link>
				</span>
			))}
			{children}
		</p>
	)
}
