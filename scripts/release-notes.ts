/**
 * `npm run release-notes`: writes docs/releases/<version>.md for the current version (the last
 * entry of app/config/releases.ts, which must be package.json's version) and the index.
 * `--check` writes nothing and exits 1 naming each page that differs from what it would write.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CAPABILITIES } from '../app/config/capabilities'
import { RELEASES } from '../app/config/releases'
import { releasePage, releasesIndex } from './lib/release-notes'

if (process.argv.includes('--help')) {
	console.log(
		'Usage: npm run release-notes [-- --check] [--dir <folder>]\n\nWrites docs/releases/<version>.md and docs/releases/README.md from the capability registry.',
	)
	process.exit(0)
}

const root = path.resolve(import.meta.dirname, '..')
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version
const current = RELEASES.at(-1)
if (!current || current.version !== version) {
	console.error(`app/config/releases.ts must end with package.json's version ${version} (it ends with ${current?.version ?? 'nothing'}).`)
	process.exit(1)
}
// --dir: another folder than docs/releases (the test checks a stale copy with it).
const dirAt = process.argv.indexOf('--dir')
const dir = dirAt > 0 ? path.resolve(process.argv[dirAt + 1] ?? '') : path.join(root, 'docs/releases')
const pages: Array<[string, string]> = [
	[path.join(dir, `${current.version}.md`), releasePage(current, CAPABILITIES)],
	[path.join(dir, 'README.md'), releasesIndex(RELEASES)],
]
const check = process.argv.includes('--check')
let stale = 0
for (const [target, text] of pages) {
	const file = path.relative(root, target)
	const committed = existsSync(target) ? readFileSync(target, 'utf8') : null
	if (committed === text) continue
	if (check) {
		console.error(`${file} differs from what the registry generates: run npm run release-notes`)
		stale++
	} else {
		writeFileSync(target, text)
		console.log(`wrote ${file}`)
	}
}
process.exit(stale > 0 ? 1 : 0)
