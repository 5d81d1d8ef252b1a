import { readFileSync } from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from './project-root.server'

/** The oldest Node major the project runs on: the number in package.json's `engines.node` (">=24"). */
export function requiredNodeMajor(root = PROJECT_ROOT): number {
	const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines?: { node?: string } }
	const major = Number(/^>=\s*(\d+)/.exec(engines?.node ?? '')?.[1])
	if (!Number.isInteger(major)) throw new Error(`package.json: engines.node must read ">=<major>", not ${JSON.stringify(engines?.node)}`)
	return major
}

/**
 * Why this Node may not run the store, or null when it may: a Node older than `engines` names
 * (an end-of-life release, or one the dependencies were not installed for) is refused at start,
 * with the fix, rather than left to fail later in a way that names something else.
 */
export function unsupportedNode(version = process.version, required = requiredNodeMajor()): string | null {
	const major = Number(version.replace(/^v/, '').split('.')[0])
	if (major >= required) return null
	return (
		`Node ${version} is older than the Node ${required} this store runs on (package.json engines). ` +
		'Run it through npm (`npm start`, `npm run init`), which uses the Node that `npm run setup` installed, or install Node ' +
		`${required} or newer.`
	)
}
