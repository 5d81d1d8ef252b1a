/**
 * `npm run db:schemas`: writes prisma/sqlite/schema.prisma and prisma/postgresql/schema.prisma
 * from prisma/models.prisma. `--check` writes nothing and exits 1 when either file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { ENGINES, MODELS_SOURCE, schemaFile, schemaFor } from './lib/prisma-schemas.ts'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run db:schemas [-- --check]

Writes each engine's schema file from ${MODELS_SOURCE}. Then run \`npm run db:generate\`
and author one migration per engine (docs/architecture.md, "Changing the database schema").
--check  write nothing; exit 1 when a schema file differs from what the models source gives.`)
	process.exit(0)
}

const check = process.argv.includes('--check')
let drifted = 0
for (const engine of ENGINES) {
	const wanted = schemaFor(engine)
	const file = schemaFile(engine)
	if (readFileSync(file, 'utf8') === wanted) continue
	if (check) {
		drifted++
		console.error(`${file} differs from ${MODELS_SOURCE}: run \`npm run db:schemas\`.`)
	} else {
		writeFileSync(file, wanted)
		console.log(`wrote ${file}`)
	}
}
process.exit(drifted > 0 ? 1 : 0)
