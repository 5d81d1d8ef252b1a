import { Link } from 'react-router'
import type { Route } from './+types/activity'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { TIME_CURSOR } from '../../data/keyset'
import { cursorParam } from '../../security/form.server'
import { KeysetPager } from '../../ui/pager'
import { activityTarget, activityWords } from '../../ui/activity-words'
import { Email } from '../../ui/email'

export const meta = () => [{ title: 'Activity · Store Admin' }]

/** the append-only log of every Store Admin write, newest first. Read-only. */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const result = await adminRepositoriesFor(admin).audit.page({ cursor: cursorParam(args.request, TIME_CURSOR) })
	return { ...result, entries: result.entries.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })) }
}

export default function Activity({ loaderData }: Route.ComponentProps) {
	const { entries, newer, older, total } = loaderData
	return (
		<section>
			<h1>Activity</h1>
			<p className="hint">Every change made in Store Admin, with who made it and when. Entries cannot be edited or removed.</p>
			{entries.length === 0 ? (
				<p data-testid="activity-empty">No changes yet. Edits to the store, products, orders and uploads appear here.</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th>When (UTC)</th>
							<th>Who</th>
							<th>What</th>
							<th>Target</th>
						</tr>
					</thead>
					<tbody>
						{entries.map((entry) => (
							<tr key={entry.id}>
								<td data-label="When (UTC)">{entry.createdAt.replace('T', ' ').slice(0, 19)}</td>
								<td data-label="Who">
									<Email address={entry.actorEmail} />
								</td>
								<td data-label="What">{activityWords(entry.action, entry.detail)}</td>
								<td data-label="Target">
									<ActivityTarget entry={entry} />
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			<KeysetPager newer={newer} older={older} summary={`${total} entries`} />
		</section>
	)
}

/** What an entry changed: linked by its name while it exists, else by the name the entry kept. */
function ActivityTarget({ entry }: { entry: { targetType: string; detail: string | null; target: { label: string; href: string } | null } }) {
	const { kind, name } = activityTarget(entry.targetType, entry.detail)
	if (entry.target)
		return (
			<>
				{kind} <Link to={entry.target.href}>{entry.target.label}</Link>
			</>
		)
	return <>{name ? `${kind} ${name}` : kind}</>
}
