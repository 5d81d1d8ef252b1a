/**
 * `npm run docs:architecture`: writes the layer section of docs/architecture.md from the lint
 * config (scripts/lib/architecture.ts). `--check` exits 1 when the page is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { layersSection, withSection } from './lib/architecture'

if (process.argv.includes('--help')) {
	console.log('Usage: npm run docs:architecture [-- --check]\n\nWrites the layer section of docs/architecture.md from eslint.config.js; --check only compares.')
	process.exit(0)
}
const file = 'docs/architecture.md'
const page = readFileSync(file, 'utf8')
const next = withSection(page, layersSection())
if (process.argv.includes('--check')) {
	if (next !== page) {
		console.error(`${file}: the layer section differs from eslint.config.js; run \`npm run docs:architecture\``)
		process.exit(1)
	}
} else if (next !== page) {
	writeFileSync(file, next)
	console.log(`wrote the layer section of ${file}`)
}
