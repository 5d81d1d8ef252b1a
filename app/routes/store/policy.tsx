import { data, Link } from 'react-router'
import type { Route } from './+types/policy'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { POLICY_TITLES, policyParagraphs } from '../../store/identity'

export function meta({ data: found }: Route.MetaArgs) {
	return [{ title: found ? found.title : 'Page not found' }]
}

/** [R120] A policy page the Store published: its text as paragraphs, never as HTML. Unpublished or unknown: 404. */
export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	const policy = await repositoriesFor(viewer).policies.get(args.params.kind)
	if (!policy) throw data({ message: 'There is no page at this address.' }, { status: 404 })
	return { title: POLICY_TITLES[policy.kind], paragraphs: policyParagraphs(policy.body), updatedAt: policy.updatedAt.toISOString().slice(0, 10) }
}

export default function Policy({ loaderData }: Route.ComponentProps) {
	const { title, paragraphs, updatedAt } = loaderData
	return (
		<article className="policy">
			<p className="breadcrumbs">
				<Link to="/">All products</Link>
			</p>
			<h1>{title}</h1>
			{paragraphs.map((lines, index) => (
				<p key={index}>
					{lines.map((line, at) => (
						<span key={at}>
							{at > 0 ? <br /> : null}
							{line}
						</span>
					))}
				</p>
			))}
			<p className="hint">Last updated {updatedAt}.</p>
		</article>
	)
}
